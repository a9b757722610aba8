import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { parleyTest } from '../support/parley-test.js';
import { createScratchStore, type ScratchStore } from '../support/stores.js';
import { until } from '../support/until.js';
import { startServeProcess, type ServeProcess } from '../support/worker-process.js';

/** Reads a raw event stream until the server ends it; resolves with everything it sent. */
function readWholeStream(url: string, key: string): Promise<{ opened: Promise<void>; text: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}/events/stream`, { headers: { authorization: `Bearer ${key}` }, agent: false }, (response) => {
      let text = '';
      let markOpen: () => void = () => undefined;
      const opened = new Promise<void>((done) => (markOpen = done));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: ready')) markOpen();
      });
      resolve({ opened, text: new Promise((done) => response.on('end', () => done(text))) });
    });
    request.on('error', reject);
  });
}

describe('parley start stopped with SIGTERM while it works', () => {
  const model = new FakeOpenAIChatServer({ defaultReply: GREETING });
  // A web page that never comes: the ingestion job fetching it runs until the process stops.
  const hangingPage = http.createServer(() => undefined);
  let scratch: ScratchStore;
  let key: string;
  let agentId: string;
  let datasourceId: string;
  let child: ServeProcess;

  parleyTest.beforeAll(async ({ startParley }) => {
    const baseURL = await model.start();
    const pageUrl = await listenOnLoopback(hangingPage);
    scratch = await createScratchStore('sqlite');
    const models = JSON.stringify({ slow: { provider: 'openai-compatible', model: 'slow', baseURL } });
    const setup = await startParley('sqlite', { scratch, env: { PARLEY_MODELS: models } });
    try {
      const workspace = await setup.newWorkspace();
      key = workspace.key;
      agentId = (await setup.call<{ id: string }>('POST', '/agents', { key, body: { name: 'slow', modelName: 'slow' } })).body.id;
      const datastore = await setup.call<{ id: string }>('POST', '/datastores', { key, body: { name: 'pages' } });
      datasourceId = (
        await setup.call<{ id: string }>('POST', '/datasources', {
          key,
          body: { type: 'web_page', datastoreId: datastore.body.id, name: 'never', config: { source_url: `${pageUrl}/page` } },
        })
      ).body.id;
    } finally {
      await setup.close();
    }
    child = await startServeProcess({ ...scratch.env, PARLEY_MODELS: models, PARLEY_SHUTDOWN_TIMEOUT_SECONDS: '20' }, { withWorkers: true });
  }, 180_000);

  afterAll(async () => {
    await child?.stop();
    await closeServer(hangingPage);
    await model.stop();
    await scratch?.drop();
  });

  it('finishes the answer under way, ends streams with a retry hint, refuses new connections and hands the job back unspent', async () => {
    const store = await openStore(scratch.config, scratch.dataDir);
    try {
      const runningJob = await until(
        async () => (await store.jobs.list({ statuses: ['running'] }))[0],
        (job) => job !== undefined,
        60_000,
      );
      expect(runningJob!.attempts).toBe(1);

      const stream = await readWholeStream(child.url, key);
      await stream.opened;
      // Five deltas 300 ms apart: the answer is still coming when the signal arrives.
      model.replies.push({ kind: 'answer', deltas: ['One', ' two', ' three', ' four', ' five.'], delayMs: 300 });
      const answer = fetch(`${child.url}/agents/${agentId}/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Count to five' }),
      });
      await until(
        () => model.requests.length,
        (count) => count >= 1,
      );
      const stopped = new Promise<number | null>((resolve) => child.process.once('exit', (code) => resolve(code)));
      child.process.kill('SIGTERM');

      const answered = await answer;
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { answer: string }).answer).toBe('One two three four five.');
      expect(await stream.text).toMatch(/retry: 1000\n\n$/);
      await expect(fetch(`${child.url}/healthz`)).rejects.toThrow();
      expect(await stopped).toBe(0);

      const job = await store.jobs.find(runningJob!.id);
      expect(job).toMatchObject({ status: 'queued', attempts: 0, leaseOwner: null });
      const datasource = await store.datasources.find(runningJob!.workspaceId!, datasourceId);
      expect(datasource?.status).not.toBe('error');
    } finally {
      await store.close();
    }
  }, 120_000);
});
