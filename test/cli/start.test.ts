import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv, waitForOutput } from '../support/cli.js';

describe('npm start on an empty data directory', () => {
  const dataDirs: string[] = [];
  afterAll(async () => {
    for (const dir of dataDirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('builds, starts, and prints the API URL, the docs URL, a key that works, the dashboard and a one-time setup link', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-start-'));
    dataDirs.push(dataDir);
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: childEnv({ PARLEY_DATA_DIR: dataDir, PORT: '0' }),
      detached: true,
    });
    try {
      const [, url, docs, key, dashboard, setup] = await waitForOutput(
        child,
        /API base URL:\s+(http:\/\/\S+)\s+API docs:\s+(\S+)\s+API key:\s+(pk_live_\S+)[\s\S]*Dashboard:\s+(\S+)\s+Setup link:\s+(\S+)/,
        90_000,
      );
      expect(dashboard).toBe(`${url}/dashboard/`);
      expect(setup).toMatch(new RegExp(`^${url}/dashboard/setup\\?token=[\\w-]+$`));
      const token = new URL(setup!).searchParams.get('token');
      const owner = await fetch(`${url}/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url! },
        body: JSON.stringify({ token, email: 'owner@example.com', name: 'Owner', password: 'a long enough password' }),
      });
      expect(owner.status).toBe(200);
      expect(docs).toBe(`${url}/docs`);
      const agents = await fetch(`${url}/agents`, { headers: { authorization: `Bearer ${key}` } });
      expect(agents.status).toBe(200);
      expect(await agents.json()).toEqual([]);
      expect((await fetch(`${docs}/`)).status).toBe(200);
      await expect(fs.stat(path.join(dataDir, 'parley.sqlite'))).resolves.toBeTruthy();
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 120_000);
});
