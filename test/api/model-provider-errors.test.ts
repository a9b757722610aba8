import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { INGEST_JOB } from '../../src/domain/ingestion/ingest-job.js';
import { waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { FakeOpenAIChatServer, GREETING, type ChatReply } from '../support/fake-openai-chat-server.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, AnswerBody, DatasourceBody, DatastoreBody, ErrorBody } from '../support/bodies.js';

/** Planted in every provider message: none of it may reach a caller. */
const SECRET = 'sk-LEAKED-123';
const INTERNAL_HOST = 'gpu-7.internal.example';
const LEAK = `Incorrect API key provided: ${SECRET}. Upstream ${INTERNAL_HOST}:8443 says no`;

const MESSAGES = {
  MODEL_ERROR: 'The model provider refused the request; quote the requestId if you report it',
  MODEL_UNAVAILABLE: 'The model provider is unavailable; try again later',
  MODEL_RATE_LIMITED: 'The model provider is busy; try again after the time in Retry-After',
};
type Code = keyof typeof MESSAGES;

interface Scenario {
  label: string;
  /** The agent's model: `remote` answers from the fake server, `down` is a closed port, `slow` times out fast. */
  model: 'remote' | 'down' | 'slow';
  reply?: ChatReply;
  status: number;
  code: Code;
  retryAfter?: string;
  /** What the log must hold of the provider's answer. */
  logged: RegExp;
}

const error = (status: number, headers?: Record<string, string>): ChatReply => ({ kind: 'error', status, message: LEAK, headers });

const SCENARIOS: Scenario[] = [
  ...[400, 401, 403, 404, 422].map((status) => ({
    label: `provider ${status}`,
    model: 'remote' as const,
    reply: error(status),
    status: 502,
    code: 'MODEL_ERROR' as const,
    logged: new RegExp(`HTTP ${status} .*${SECRET}`),
  })),
  {
    label: 'provider 429 with Retry-After',
    model: 'remote',
    reply: error(429, { 'retry-after': '7' }),
    status: 429,
    code: 'MODEL_RATE_LIMITED',
    retryAfter: '7',
    logged: new RegExp(`HTTP 429 .*${SECRET}`),
  },
  {
    label: 'provider 429 without Retry-After',
    model: 'remote',
    reply: error(429),
    status: 429,
    code: 'MODEL_RATE_LIMITED',
    retryAfter: '10',
    logged: new RegExp(`HTTP 429 .*${SECRET}`),
  },
  ...[500, 502, 503].map((status) => ({
    label: `provider ${status}`,
    model: 'remote' as const,
    reply: error(status),
    status: 503,
    code: 'MODEL_UNAVAILABLE' as const,
    logged: new RegExp(`HTTP ${status} .*${SECRET}`),
  })),
  { label: 'a refused connection', model: 'down', status: 503, code: 'MODEL_UNAVAILABLE', logged: /ECONNREFUSED/ },
  {
    label: 'a connection closed unanswered',
    model: 'remote',
    reply: { kind: 'reset' },
    status: 503,
    code: 'MODEL_UNAVAILABLE',
    logged: /no response/,
  },
  { label: 'a timeout', model: 'slow', reply: { kind: 'silent' }, status: 503, code: 'MODEL_UNAVAILABLE', logged: /did not answer in time/ },
];

interface StreamCutScenario {
  label: string;
  model: 'remote' | 'slow';
  reply: ChatReply;
  code: Code;
  logged: RegExp;
}

const DELTAS = ['Twenty', ' thousand'];
const STREAM_CUTS: StreamCutScenario[] = [
  {
    label: 'an error the provider sends mid-stream',
    model: 'remote',
    reply: { kind: 'answer', deltas: DELTAS, cut: { error: { message: LEAK, type: 'server_error' } } },
    code: 'MODEL_UNAVAILABLE',
    logged: new RegExp(SECRET),
  },
  {
    label: 'a rate limit the provider sends mid-stream',
    model: 'remote',
    reply: { kind: 'answer', deltas: DELTAS, cut: { error: { message: LEAK, type: 'rate_limit_exceeded' } } },
    code: 'MODEL_RATE_LIMITED',
    logged: new RegExp(SECRET),
  },
  {
    label: 'a dropped connection',
    model: 'remote',
    reply: { kind: 'answer', deltas: DELTAS, cut: 'drop' },
    code: 'MODEL_UNAVAILABLE',
    logged: /HTTP 200/,
  },
  {
    label: 'a provider gone silent',
    model: 'slow',
    reply: { kind: 'answer', deltas: DELTAS, cut: 'hang' },
    code: 'MODEL_UNAVAILABLE',
    logged: /did not answer in time/,
  },
  {
    label: 'the content filter',
    model: 'remote',
    reply: { kind: 'answer', deltas: DELTAS, finishReason: 'content_filter' },
    code: 'MODEL_ERROR',
    logged: /content-filter/,
  },
];

/** Every header value and the body, as one text to search for leaks. */
const exposed = (headers: Headers, body: unknown) =>
  [...headers.entries()].map(([name, value]) => `${name}: ${value}`).join('\n') + (typeof body === 'string' ? body : JSON.stringify(body));

describe.each(STORE_KINDS)('model provider failures on %s', (kind) => {
  const chat = new FakeOpenAIChatServer();
  const embeddings = new FakeEmbeddingsServer();
  const logLines: string[] = [];
  let parley: TestParley;
  let ws: Workspace;
  let chatURL = '';
  let embeddingsURL = '';
  const agents: Record<string, string> = {};

  parleyTest.beforeAll(async ({ startParley }) => {
    chatURL = await chat.start();
    embeddingsURL = await embeddings.start();
    const closed = new FakeOpenAIChatServer();
    const closedURL = await closed.start();
    await closed.stop();
    const remote = { provider: 'openai-compatible', model: 'fake-chat', apiKey: 'sk-parley-own' };
    parley = await startParley(kind, {
      workers: true,
      logStream: { write: (line) => void logLines.push(line) },
      env: {
        PARLEY_LOG_LEVEL: 'warn',
        PARLEY_EMBEDDINGS_URL: embeddingsURL,
        PARLEY_EMBEDDINGS_MODEL: 'fake-embed',
        PARLEY_JOB_RETRY_BASE_SECONDS: '0.2',
        PARLEY_MODELS: JSON.stringify({
          remote: { ...remote, baseURL: chatURL, maxOutputTokens: 512 },
          down: { ...remote, baseURL: closedURL },
          slow: { ...remote, baseURL: chatURL, timeoutSeconds: 0.5 },
        }),
      },
    });
    ws = await parley.newWorkspace();
    for (const model of ['remote', 'down', 'slow']) {
      const created = await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: model, modelName: model, visibility: 'public' } });
      expect(created.status).toBe(200);
      agents[model] = created.body.id;
    }
  }, 60_000);
  afterAll(async () => {
    await chat.stop();
    await embeddings.stop();
  });
  beforeEach(() => {
    chat.replies.length = 0;
    embeddings.replies.length = 0;
  });

  /** The provider's answer is in the log, under the request's id. */
  const expectLogged = (requestId: string, logged: RegExp) => {
    const lines = logLines.filter((line) => line.includes(`"reqId":"${requestId}"`));
    expect(
      lines.some((line) => logged.test(line)),
      `log of ${requestId}: ${lines.join('\n')}`,
    ).toBe(true);
  };

  const expectNoLeak = (text: string) => {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(INTERNAL_HOST);
    expect(text).not.toContain(chatURL);
    expect(text).not.toContain(embeddingsURL);
  };

  const callers = [
    ['a keyless caller', () => null],
    ['a keyed caller', () => ws.key],
  ] as const;

  describe.each(callers)('for %s', (_caller, keyOf) => {
    it.each(SCENARIOS)('$label: $status $code, our message only', async ({ model, reply, status, code, retryAfter, logged }) => {
      for (const streaming of [false, true]) {
        if (reply) chat.replies.push(reply);
        const response = await parley.call<ErrorBody>('POST', `/agents/${agents[model]}/query`, {
          key: keyOf(),
          body: { query: `What happened? (${code} ${streaming})`, streaming },
        });
        // Streamed or not, a failure before the first byte is the usual JSON error.
        expect(response.status).toBe(status);
        expect(response.body).toEqual({ error: code, message: MESSAGES[code], requestId: expect.stringMatching(/^req_/) });
        expect(response.headers.get('retry-after') ?? undefined).toBe(retryAfter);
        expectNoLeak(exposed(response.headers, response.body));
        expectLogged(response.body.requestId, logged);
      }
    });

    it.each(STREAM_CUTS)('$label after the first deltas: data: [ERROR] with our message only', async ({ model, reply, code, logged }) => {
      chat.replies.push(reply);
      const response = await fetch(`${parley.url}/agents/${agents[model]}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(keyOf() ? { authorization: `Bearer ${keyOf()}` } : {}) },
        body: JSON.stringify({ query: 'Tell me about the delivery', streaming: true }),
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      const frames = text.split('\n\n').filter(Boolean);
      expect(frames.slice(0, 2)).toEqual(DELTAS.map((delta) => `event: answer\ndata: ${encodeURIComponent(delta)}`));
      expect(frames.at(-1)).toBe(`data: [ERROR]${MESSAGES[code]}`);
      expectNoLeak(exposed(response.headers, text));
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^req_/);
      expectLogged(requestId!, logged);
    });

    it('maps a failing embeddings provider the same way when a question or a search is embedded', async () => {
      const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { visibility: 'public' } })).body.id;
      const cases = [
        [401, 'MODEL_ERROR', 502],
        [503, 'MODEL_UNAVAILABLE', 503],
        [429, 'MODEL_RATE_LIMITED', 429],
      ] as const;
      for (const [status, code, ourStatus] of cases) {
        for (const path of [`/agents/${agents.remote}/query`, `/datastores/${datastoreId}/query`]) {
          // The SDK retries 5xx and 429 twice: every attempt fails (a 401 leaves the rest unused).
          embeddings.replies.length = 0;
          for (let i = 0; i < 3; i++) {
            embeddings.replies.push({ kind: 'error', status, message: LEAK, headers: { 'retry-after-ms': '10' } });
          }
          const response = await parley.call<ErrorBody>('POST', path, { key: keyOf(), body: { query: `Embed me ${status} ${Math.random()}` } });
          expect(response.status).toBe(ourStatus);
          expect(response.body).toMatchObject({ error: code, message: MESSAGES[code] });
          expectNoLeak(exposed(response.headers, response.body));
          expectLogged(response.body.requestId, new RegExp(`HTTP ${status} .*${SECRET}`));
        }
      }
    });
  });

  // Without a key maxTokens is refused outright (an override), so the bound matters to callers with one.
  it('refuses a maxTokens above the model’s configured bound', async () => {
    const before = chat.requests.length;
    const refused = await parley.call<ErrorBody>('POST', `/agents/${agents.remote}/query`, { key: ws.key, body: { query: 'Hi', maxTokens: 513 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'INVALID_REQUEST', details: [{ field: 'body.maxTokens', message: 'must be <= 512' }] });
    expect(chat.requests.length).toBe(before);
    chat.replies.push(GREETING);
    const allowed = await parley.call<AnswerBody>('POST', `/agents/${agents.remote}/query`, { key: ws.key, body: { query: 'Hi', maxTokens: 512 } });
    expect(allowed.status).toBe(200);
    expect(chat.requests.at(-1)!.body.max_tokens).toBe(512);
  });

  describe('ingestion', () => {
    const ingestText = async (text: string) => {
      const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} })).body.id;
      const created = await parley.call<DatasourceBody>('POST', '/datasources', { key: ws.key, body: { type: 'text', datastoreId, text } });
      expect(created.status).toBe(200);
      return created.body.id;
    };
    const jobOf = async (datasourceId: string) =>
      (await parley.core.store.jobs.list({ kind: INGEST_JOB })).find((job) => job.payload.datasourceId === datasourceId);

    it('fails the job at once when the embeddings provider refuses the request', async () => {
      embeddings.replies.push({ kind: 'error', status: 401, message: LEAK });
      const id = await ingestText('The warehouse in Lyon ships within two days.');
      const datasource = await waitForDatasource(parley, ws.key, id);
      expect(datasource).toMatchObject({
        status: 'error',
        error: 'The embeddings provider refused the request; the server log has its answer',
      });
      expectNoLeak(JSON.stringify(datasource));
      expect(await jobOf(id)).toMatchObject({ status: 'failed', attempts: 1 });
    });

    it('retries the job when the embeddings provider is unavailable', async () => {
      // Every request of the first attempt (the SDK retries twice) fails; the second attempt succeeds.
      for (let i = 0; i < 3; i++) embeddings.replies.push({ kind: 'error', status: 503, message: LEAK, headers: { 'retry-after-ms': '10' } });
      const id = await ingestText('The warehouse in Lyon ships within three days.');
      const datasource = await waitForDatasource(parley, ws.key, id, { until: new Set(['synched', 'error']) });
      expect(datasource.status).toBe('synched');
      expect(await jobOf(id)).toMatchObject({
        status: 'done',
        attempts: 2,
        lastError: 'The embeddings provider is unavailable; the server log has the details',
      });
    });
  });
});
