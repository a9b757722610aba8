import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startParleyForCli } from '../support/cli.js';
import type { TestParley } from '../support/parley.js';
import { STORE_KINDS, type ScratchStore } from '../support/stores.js';
import type { AgentBody } from '../support/bodies.js';

// Each command is a process of its own, started from the sources: seconds apiece on a loaded machine.
describe.each(STORE_KINDS)('parley keys on %s', { timeout: 120_000 }, (kind) => {
  let scratch: ScratchStore;
  let parley: TestParley;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ scratch, parley, close } = await startParleyForCli(kind));
  });
  afterAll(() => close());

  it('creates a key (and its workspace) that then works over HTTP', async () => {
    const created = await runCli(['keys', 'create', '--workspace', 'Acme'], scratch.env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^pk_live_\S+$/);

    const agent = await parley.call<AgentBody>('POST', '/agents', { key, body: { name: 'from the CLI key' } });
    expect(agent.status).toBe(200);
    const again = await runCli(['keys', 'create', '--workspace', 'Acme'], scratch.env);
    const listed = await parley.call<AgentBody[]>('GET', '/agents', { key: again.stdout.trim() });
    expect(listed.body.map((a) => a.id)).toEqual([agent.body.id]);
  });

  it('lists keys by prefix and refuses to delete a workspace’s last key', async () => {
    const key = (await runCli(['keys', 'create', '--workspace', 'Solo'], scratch.env)).stdout.trim();
    const list = await runCli(['keys', 'list', '--workspace', 'Solo'], scratch.env);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(key);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const [id, prefix] = lines[0]!.split('\t');
    expect(key.startsWith(prefix!.replace('…', ''))).toBe(true);

    const refused = await runCli(['keys', 'delete', id!], scratch.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/last API key/);
    expect((await parley.call('GET', '/agents', { key })).status).toBe(200);

    const second = (await runCli(['keys', 'create', '--workspace', 'Solo'], scratch.env)).stdout.trim();
    const deleted = await runCli(['keys', 'delete', id!], scratch.env);
    expect(deleted.code).toBe(0);
    expect((await parley.call('GET', '/agents', { key })).status).toBe(401);
    expect((await parley.call('GET', '/agents', { key: second })).status).toBe(200);
  });

  it('explains a wrong call and a bad configuration', async () => {
    const unknown = await runCli(['keys', 'rotate'], scratch.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown keys action "rotate"/);
    const badPort = await runCli(['keys', 'list'], { ...scratch.env, PORT: 'eighty' });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toMatch(/PORT must be an integer/);
    const typo = await runCli(['keys', 'list'], { ...scratch.env, PARLEY_DATABSE_URL: 'x' });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/Unknown configuration variable PARLEY_DATABSE_URL/);
  });
});
