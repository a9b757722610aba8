import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startParleyForCli } from '../support/cli.js';
import { STORE_KINDS } from '../support/stores.js';

const linkIn = (stdout: string) => stdout.match(/https?:\/\/\S+/)?.[0];

// Each command is a process of its own, started from the sources: seconds apiece on a loaded machine.
describe.each(STORE_KINDS)('parley users on %s', { timeout: 120_000 }, (kind) => {
  // PORT=0: the server's port is one the CLI's environment cannot know.
  let started: Awaited<ReturnType<typeof startParleyForCli>>;
  beforeAll(async () => void (started = await startParleyForCli(kind)));
  afterAll(() => started.close());
  const users = (args: string[], env: Record<string, string> = {}) => runCli(['users', ...args], { ...started.scratch.env, ...env });

  it('prints links to the port the server was started with, which then set the password', async () => {
    const created = await users(['create', '--email', 'ops@example.com', '--workspace', 'Ops']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const setLink = linkIn(created.stdout)!;
    expect(setLink.startsWith(`${started.parley.url}/dashboard/reset-password?token=`), created.stdout).toBe(true);

    const reset = await users(['reset-password', '--email', 'ops@example.com']);
    expect(reset.code).toBe(0);
    const resetLink = linkIn(reset.stdout)!;
    expect(resetLink.startsWith(`${started.parley.url}/dashboard/reset-password?token=`), reset.stdout).toBe(true);
    // Only the newest link works, and it works through the server the link names.
    const use = (link: string) =>
      started.parley.call('POST', '/auth/password-reset', {
        headers: { origin: started.parley.url },
        body: { token: new URL(link).searchParams.get('token'), password: 'a long enough password' },
      });
    expect((await use(setLink)).status).toBe(404);
    expect((await use(resetLink)).status).toBe(200);
  });

  it('prints links under PARLEY_PUBLIC_URL when it is set', async () => {
    const reset = await users(['reset-password', '--email', 'ops@example.com'], { PARLEY_PUBLIC_URL: 'https://support.example.com/' });
    expect(reset.code).toBe(0);
    expect(linkIn(reset.stdout)).toMatch(/^https:\/\/support\.example\.com\/dashboard\/reset-password\?token=[\w-]+$/);
  });
});
