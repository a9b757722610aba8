import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv, waitForOutput } from '../support/cli.js';
import { waitForDatasource } from '../support/datasources.js';
import { startTestParley } from '../support/parley.js';
import { STORE_KINDS, createScratchStore } from '../support/stores.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { eventOf, type DatasourceBody, type DatastoreBody } from '../support/bodies.js';

describe.skipIf(!STORE_KINDS.includes('postgres'))('two `parley worker` processes on one PostgreSQL', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  });

  it('share the queue, never process the same job twice, and deliver each event once', async () => {
    const scratch = await createScratchStore('postgres');
    const api = await startTestParley('postgres', { scratch });
    const receiver = await WebhookReceiver.start();
    try {
      const ws = await api.newWorkspace();
      const webhook = await api.call('POST', '/webhooks', { key: ws.key, body: { url: receiver.url, events: ['datasource.synched'] } });
      expect(webhook.status).toBe(200);
      const datastoreId = (await api.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      const ids: string[] = [];
      for (let index = 0; index < 16; index += 1) {
        const text = `Note ${index}. ` + `Sentence ${index} about subject ${index * 7} and its particulars. `.repeat(40);
        ids.push((await api.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text } })).body.id);
      }
      for (let worker = 0; worker < 2; worker += 1) {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
          cwd: ROOT,
          env: childEnv({ ...scratch.env, PARLEY_WORKER_CONCURRENCY: '2', PARLEY_EMBEDDINGS_THREADS: '1' }),
          detached: true,
        });
        children.push(child);
        await waitForOutput(child, /worker \S+ running/, 60_000);
      }
      for (const id of ids) {
        const record = await waitForDatasource(api, ws.key, id, { timeoutMs: 180_000 });
        expect(record, JSON.stringify(record)).toMatchObject({ status: 'synched' });
      }
      // A datasource is synched a moment before its job is marked done.
      const jobs = await until(
        () => api.core.store.jobs.list({ kind: 'ingest-datasource' }),
        (listed) => listed.length === ids.length && listed.every((job) => job.status !== 'running'),
      );
      for (const job of jobs) expect(job).toMatchObject({ status: 'done', attempts: 1 });
      for (const id of ids) {
        const chunks = await api.core.store.datasources.listChunks(ws.id, id, { offset: 0, limit: 100 });
        expect(chunks.map((chunk) => chunk.ordinal)).toEqual([...chunks.keys()]);
      }
      // Both workers drain the outbox; each datasource.synched reaches the endpoint once.
      const received = await receiver.waitFor(ids.length, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(receiver.received).toHaveLength(ids.length);
      expect(new Set(received.map((request) => request.headers['parley-delivery'])).size).toBe(ids.length);
      expect(received.map((request) => eventOf<'datasource.synched'>(request.body).data.datasourceId).sort()).toEqual([...ids].sort());
    } finally {
      for (const child of children) process.kill(-child.pid!, 'SIGTERM');
      await receiver.close();
      await api.close();
      await scratch.drop();
    }
  }, 300_000);
});
