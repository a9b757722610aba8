import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestParley, type TestParley } from '../support/parley.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';

const linkIn = (stdout: string) => stdout.match(/https?:\/\/\S+/)?.[0];

describe.each(STORE_KINDS)('parley users on %s', (kind) => {
  let scratch: ScratchStore;
  let parley: TestParley;

  beforeAll(async () => {
    scratch = await createScratchStore(kind);
    // PORT=0: the server's port is one the CLI's environment cannot know.
    parley = await startTestParley(kind, { scratch });
  });
  afterAll(async () => {
    await parley.close();
    await scratch.drop();
  });

  it('prints links to the port the server was started with, which then set the password', async () => {
    const created = await runCli(['users', 'create', '--email', 'ops@example.com', '--workspace', 'Ops'], scratch.env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const setLink = linkIn(created.stdout)!;
    expect(setLink.startsWith(`${parley.url}/dashboard/reset-password?token=`), created.stdout).toBe(true);

    const reset = await runCli(['users', 'reset-password', '--email', 'ops@example.com'], scratch.env);
    expect(reset.code).toBe(0);
    const resetLink = linkIn(reset.stdout)!;
    expect(resetLink.startsWith(`${parley.url}/dashboard/reset-password?token=`), reset.stdout).toBe(true);
    // Only the newest link works, and it works through the server the link names.
    const use = (link: string) =>
      parley.call('POST', '/auth/password-reset', {
        headers: { origin: parley.url },
        body: { token: new URL(link).searchParams.get('token'), password: 'a long enough password' },
      });
    expect((await use(setLink)).status).toBe(404);
    expect((await use(resetLink)).status).toBe(200);
  });

  it('prints links under PARLEY_PUBLIC_URL when it is set', async () => {
    const reset = await runCli(['users', 'reset-password', '--email', 'ops@example.com'], { ...scratch.env, PARLEY_PUBLIC_URL: 'https://support.example.com/' });
    expect(reset.code).toBe(0);
    expect(linkIn(reset.stdout)).toMatch(/^https:\/\/support\.example\.com\/dashboard\/reset-password\?token=[\w-]+$/);
  });
});
