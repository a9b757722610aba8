import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv, waitForOutput } from '../support/cli.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import { COVID_QA_CORPUS } from '../support/fixtures.js';
import type { ChunkBody, DatasourceBody, DatastoreBody } from '../support/bodies.js';

const CORPUS = COVID_QA_CORPUS;

/**
 * About 40k characters of real articles: long enough to be killed mid-way (some seconds of embedding on one
 * thread), short enough to be embedded three times per store.
 */
const LONG_TEXT = fs
  .readFileSync(CORPUS, 'utf8')
  .split('\n')
  .slice(0, 6)
  .map((line) => (JSON.parse(line) as { text: string }).text)
  .join('\n\n')
  .slice(0, 40_000);

function startParley(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: ROOT,
    env: childEnv({ ...env, PORT: '0', PARLEY_JOB_LEASE_SECONDS: '2', PARLEY_EMBEDDINGS_THREADS: '1' }),
    detached: true,
  });
}

/** One call to the child's API; `T` is the body the route answers. */
const api = async <T>(url: string, key: string, method: string, route: string, body?: unknown): Promise<T> => {
  const response = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return JSON.parse(await response.text()) as T;
};

async function waitFor(url: string, key: string, id: string, done: (record: DatasourceBody) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await api<DatasourceBody>(url, key, 'GET', `/datasources/${id}`);
    if (done(record)) return record;
    if (Date.now() > deadline) throw new Error(`datasource stuck: ${JSON.stringify(record)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(STORE_KINDS)('a crash mid-ingestion on %s', (kind) => {
  let scratch: ScratchStore;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    scratch = await createScratchStore(kind);
  });
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
    await scratch.drop();
  });

  it('resumes after SIGKILL and ends synched with exactly the expected chunks', async () => {
    const first = startParley(scratch.env);
    children.push(first);
    const [, url, key] = await waitForOutput(first, /API base URL:\s+(\S+)[\s\S]*API key:\s+(pk_live_\S+)/, 60_000);
    const datastoreId = (await api<DatastoreBody>(url!, key!, 'POST', '/datastores', {})).id;
    const victim = await api<DatasourceBody>(url!, key!, 'POST', '/datasources', { type: 'text', datastoreId, name: 'long', text: LONG_TEXT });

    // Parsed and chunked (progress 0.2), now embedding: the middle of the work.
    await waitFor(url!, key!, victim.id, (record) => record.status === 'running' && record.progress >= 0.2, 90_000);
    process.kill(-first.pid!, 'SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));

    const second = startParley(scratch.env);
    children.push(second);
    const [, url2] = await waitForOutput(second, /API base URL:\s+(\S+)/, 60_000);
    const recovered = await waitFor(url2!, key!, victim.id, (record) => ['synched', 'error'].includes(record.status), 120_000);
    expect(recovered).toMatchObject({ status: 'synched', error: null, progress: 1 });

    // The same text ingested without interruption is the reference: a second copy on purpose.
    const control = await api<DatasourceBody>(url2!, key!, 'POST', '/datasources', {
      type: 'text',
      datastoreId,
      name: 'control',
      text: LONG_TEXT,
      onDuplicate: 'keep_both',
    });
    const reference = await waitFor(url2!, key!, control.id, (record) => record.status === 'synched', 120_000);
    expect(recovered.nbChunks).toBe(reference.nbChunks);
    const chunks = await api<ChunkBody[]>(url2!, key!, 'GET', `/datasources/${victim.id}/chunks?limit=500`);
    expect(chunks).toHaveLength(reference.nbChunks);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([...Array(reference.nbChunks).keys()]);
    process.kill(-second.pid!, 'SIGTERM');
    await new Promise((resolve) => second.once('exit', resolve));
  }, 300_000);
});
