import { afterAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/http/metrics-server.js';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { EventStreamClient } from '../support/event-stream.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { waitForDatasource } from '../support/datasources.js';
import { until } from '../support/until.js';
import type { DatasourceBody, ErrorBody } from '../support/bodies.js';
import { valueOf } from '../support/metrics.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe.each(STORE_KINDS)('metrics on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  const model = new FakeOpenAIChatServer();

  parleyTest.beforeAll(async ({ startParley }) => {
    const baseURL = await model.start();
    parley = await startParley(kind, {
      workers: true,
      env: {
        PARLEY_METRICS_TOKEN: TOKEN,
        PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL } }),
      },
    });
    ws = await parley.newWorkspace();
  });
  afterAll(async () => {
    await model.stop();
  });

  async function scrape(): Promise<string> {
    const response = await fetch(`${parley.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  }

  it('answers only the metrics token, with a JSON error otherwise', async () => {
    for (const authorization of [undefined, `Bearer ${ws.key}`, `Bearer ${TOKEN}x`, TOKEN]) {
      const response = await fetch(`${parley.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });
      expect(response.status).toBe(401);
      expect(((await response.json()) as ErrorBody).error).toBe('UNAUTHORIZED');
    }
    expect(await scrape()).toContain('parley_process_cpu_seconds_total');
  });

  it('times requests by route pattern and status, never by URL', async () => {
    const before = await scrape();
    const labels = { method: 'GET', route: '/agents/:id', status_code: '404' };
    // Under /api too: one route, one pattern.
    for (const path of ['/agents/a1', '/agents/a2', '/api/agents/a3']) expect((await parley.call('GET', path, { key: ws.key })).status).toBe(404);
    const after = await scrape();
    expect(
      valueOf(after, 'parley_http_request_duration_seconds_count', labels) - valueOf(before, 'parley_http_request_duration_seconds_count', labels),
    ).toBe(3);
    expect(after).not.toContain('/agents/a1');
    expect(after).not.toContain('/api/');
    // The scrape itself is under way while it renders.
    expect(valueOf(after, 'parley_http_requests_in_flight')).toBeGreaterThanOrEqual(1);
  });

  it('counts ingestion, query embeddings, the query-vector cache and model tokens', async () => {
    const before = await scrape();
    const datastore = await parley.call<{ id: string }>('POST', '/datastores', { key: ws.key, body: { name: 'metrics' } });
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: {
        type: 'text',
        datastoreId: datastore.body.id,
        name: 'Opening hours',
        text: 'The shop opens at nine and closes at six, every day but Sunday.',
      },
    });
    const synched = await waitForDatasource(parley, ws.key, created.body.id);
    expect(synched.status).toBe('synched');
    const query = { query: `when does the shop open ${Math.random()}`, topK: 3 };
    for (let i = 0; i < 2; i += 1) {
      expect((await parley.call('POST', `/datastores/${datastore.body.id}/query`, { key: ws.key, body: query })).status).toBe(200);
    }
    const agent = await parley.call<{ id: string }>('POST', '/agents', {
      key: ws.key,
      body: { name: 'metered', modelName: 'remote', tools: [{ type: 'datastore', datastoreId: datastore.body.id }] },
    });
    model.replies.push(GREETING);
    expect((await parley.call('POST', `/agents/${agent.body.id}/query`, { key: ws.key, body: { query: 'When does it open?' } })).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('parley_ingested_chunks_total')).toBe(synched.nbChunks);
    expect(delta('parley_embedded_texts_total', { kind: 'documents' })).toBe(synched.nbChunks);
    // The same question twice: one computed vector, one from the cache (the agent's question is another).
    expect(delta('parley_query_vector_cache_total', { result: 'hit' })).toBe(1);
    expect(delta('parley_query_vector_cache_total', { result: 'miss' })).toBe(2);
    expect(delta('parley_embedding_duration_seconds_count', { kind: 'query' })).toBe(2);
    expect(delta('parley_model_duration_seconds_count', { model: 'fake-chat', outcome: 'complete' })).toBe(1);
    expect(delta('parley_model_tokens_total', { model: 'fake-chat', direction: 'prompt' })).toBeGreaterThan(0);
    expect(delta('parley_model_tokens_total', { model: 'fake-chat', direction: 'completion' })).toBeGreaterThan(0);
  });

  it('reads the queue and the outbox from the store at each scrape', async () => {
    // Events are handed on by the dispatcher at once; the outbox gauge is there and never negative.
    const text = await scrape();
    expect(text).toMatch(/^parley_event_outbox_pending \d+$/m);
    expect(valueOf(text, 'parley_event_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    // A job due an hour ago and not claimed (its kind has no worker) waits that long.
    const dueAt = new Date(Date.now() - 3_600_000).toISOString();
    await parley.core.store.jobs.enqueue({
      id: `job-${Math.random()}`,
      kind: 'metrics-test',
      workspaceId: ws.id,
      payload: {},
      maxAttempts: 1,
      runAt: dueAt,
    });
    const withJob = await scrape();
    expect(valueOf(withJob, 'parley_jobs', { kind: 'metrics-test', state: 'queued' })).toBe(1);
    expect(valueOf(withJob, 'parley_job_oldest_queued_age_seconds', { kind: 'metrics-test' })).toBeGreaterThanOrEqual(3_599);
  });

  it('counts open event streams', async () => {
    const open = () => scrape().then((text) => valueOf(text, 'parley_event_streams_open', { stream: 'workspace' }));
    const before = await open();
    const stream = await EventStreamClient.open(parley.url, { key: ws.key });
    expect(await open()).toBe(before + 1);
    stream.close();
    await until(open, (now) => now === before);
  });

  it('serves GET /metrics alone on a port of its own, without a token', async () => {
    const server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('parley_http_request_duration_seconds');
      expect((await fetch(server.url.replace('/metrics', '/agents'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('metrics without a token', () => {
  let parley: TestParley;
  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(STORE_KINDS[0]!);
  });

  it('has no /metrics route on the API port', async () => {
    expect((await fetch(`${parley.url}/metrics`)).status).toBe(404);
  });
});
