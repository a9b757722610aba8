import http from 'node:http';
import { describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { waitForDatasource } from '../support/datasources.js';
import type {
  AgentBody,
  AnswerBody,
  ListedConversationBody,
  DatasourceBody,
  DatastoreBody,
  ErrorBody,
  ModelBody,
  SearchHitBody,
} from '../support/bodies.js';

/**
 * Clients written for the hosted service, replayed as their published code sends each request (paths,
 * headers, bodies) and read as that code reads the answer (README, "Clients written for the hosted API"). Each block names the file it follows;
 * the hosted widget's stream and keyless flow have their own suite.
 */

const HOURS = 'The bakery opens at seven in the morning and closes at six in the evening, Monday to Saturday.';
const RETURNS = 'Unopened goods can be returned within thirty days for a full refund when you bring the receipt.';

/** What a client's HTTP library hands back: status and parsed JSON (or text). */
interface Reply<T> {
  status: number;
  data: T;
}

async function send<T>(url: string, init: RequestInit): Promise<Reply<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, data: (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T };
}

/** A web server holding the file a Zapier user picked: Zapier hands the app a URL and the app downloads it. */
async function fileHost(name: string, text: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url !== `/files/${name}`) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  });
  const base = await listenOnLoopback(server);
  return { url: `${base}/files/${name}`, close: () => closeServer(server) };
}

describe.each(STORE_KINDS)('clients written for the hosted API, on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let workspaceName: string;
  let datastoreId: string;
  let hoursId: string;
  let returnsId: string;
  let agentId: string;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    workspaceName = `Bakery ${Math.random().toString(36).slice(2, 8)}`;
    ws = await parley.newWorkspace(workspaceName);
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'bakery', description: 'Shop' } })).body.id;
    const text = async (name: string, customId: string, body: string) =>
      (
        await parley.call<DatasourceBody>('POST', '/datasources', {
          key: ws.key,
          body: { type: 'text', datastoreId, name, text: body, custom_id: customId },
        })
      ).body.id;
    hoursId = await text('Opening hours', 'hours', HOURS);
    returnsId = await text('Returns', 'returns', RETURNS);
    for (const id of [hoursId, returnsId]) expect((await waitForDatasource(parley, ws.key, id)).status).toBe('synched');
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Baker', tools: [{ type: 'datastore', datastoreId }] } }))
      .body.id;
  });

  describe('every route also answers under /api', () => {
    it('answers the same at the root and under /api, and lists each route once', async () => {
      for (const path of ['/agents', `/agents/${agentId}`, '/datastores', '/models']) {
        const root = await parley.call('GET', path, { key: ws.key });
        const prefixed = await parley.call('GET', `/api${path}`, { key: ws.key });
        expect([root.status, prefixed.status], path).toEqual([200, 200]);
        expect(prefixed.body, path).toEqual(root.body);
      }
      expect((await parley.call('GET', '/api/healthz')).status).toBe(200);
      // `/api` alone is the root; a path that only starts with the letters is not under the prefix.
      expect((await fetch(`${parley.url}/api`, { redirect: 'manual' })).headers.get('location')).toBe('/dashboard/');
      expect((await parley.call('GET', '/apiary', { key: ws.key })).status).toBe(404);
      expect(parley.app.registeredRoutes.filter((route) => route.url.startsWith('/api'))).toEqual([]);
    });

    it('refuses without a key, and answers an unknown /api path 404 naming the path as sent', async () => {
      const refused = await parley.call<ErrorBody>('GET', '/api/agents', { key: null });
      expect([refused.status, refused.body.error]).toEqual([401, 'UNAUTHORIZED']);
      const missing = await parley.call<ErrorBody>('GET', '/api/no-such-route?x=1', { key: ws.key });
      expect([missing.status, missing.body.error]).toEqual([404, 'NOT_FOUND']);
      expect(missing.body.message).toBe('No route GET /api/no-such-route');
    });

    it('serves the OpenAPI document and the docs under /api too; the document says so', async () => {
      const document = await parley.call<{ servers: { url: string }[]; info: { description: string } }>('GET', '/api/openapi.json');
      expect(document.status).toBe(200);
      expect(document.body.servers.map((server) => server.url)).toEqual(['/', '/api']);
      expect(document.body.info.description).toContain('/api');
      const docs = await fetch(`${parley.url}/api/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toMatch(/<html/i);
    });

    it('answers a browser’s preflight for a public agent under /api as at the root', async () => {
      await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'public' } });
      try {
        const preflight = (path: string) =>
          fetch(`${parley.url}${path}`, {
            method: 'OPTIONS',
            headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
          });
        const [root, prefixed] = await Promise.all([preflight(`/agents/${agentId}/query`), preflight(`/api/agents/${agentId}/query`)]);
        expect(prefixed.status).toBe(root.status);
        expect(prefixed.headers.get('access-control-allow-origin')).toBe(root.headers.get('access-control-allow-origin'));
        expect(prefixed.headers.get('access-control-allow-origin')).not.toBeNull();
      } finally {
        await parley.call('PATCH', `/agents/${agentId}`, { key: ws.key, body: { visibility: 'private' } });
      }
    });
  });

  // gmpetrov/databerry apps/dashboard/widgets/zapier: authentication.js, triggers/, creates/, searches/ (API_URL = the app host).
  describe('the hosted service’s Zapier app', () => {
    const zapierHeaders = () => ({ Accept: 'application/json', Authorization: `Bearer ${ws.key}` });

    it('connects an account: the authentication test reads the workspace’s name for the connection label', async () => {
      const test = await send<{ name: string }>(`${parley.url}/api/me`, { headers: { Authorization: `Bearer ${ws.key}` } });
      expect(test.status).toBe(200);
      // connectionLabel: (z, bundle) => `Oganization: ${bundle.inputData.name}`
      expect(`Oganization: ${test.data.name}`).toBe(`Oganization: ${workspaceName}`);
      expect(test.data).toMatchObject({ id: ws.id, role: 'owner' });
      const wrong = await send<ErrorBody>(`${parley.url}/api/me`, { headers: { Authorization: 'Bearer pk_live_not-a-key' } });
      expect([wrong.status, wrong.data.error]).toEqual([401, 'UNAUTHORIZED']);
    });

    it('lists agents and datastores for its dropdowns (id and name)', async () => {
      const agents = await send<{ id: string; name: string }[]>(`${parley.url}/api/agents`, { headers: zapierHeaders() });
      expect(agents.data.map(({ id, name }) => ({ id, name }))).toContainEqual({ id: agentId, name: 'Baker' });
      const datastores = await send<{ id: string; name: string; description: string }[]>(`${parley.url}/api/datastores`, {
        headers: zapierHeaders(),
      });
      expect(datastores.data.map(({ id, name, description }) => ({ id, name, description }))).toContainEqual({
        id: datastoreId,
        name: 'bakery',
        description: 'Shop',
      });
    });

    it('queries an agent with its templated body (truncateQuery as text) and reads answer', async () => {
      for (const truncateQuery of ['', 'true']) {
        const reply = await send<{ answer: string }>(`${parley.url}/api/agents/${agentId}/query`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...zapierHeaders() },
          body: JSON.stringify({ query: 'When does the bakery open?', truncateQuery }),
        });
        expect(reply.status).toBe(200);
        expect(reply.data.answer).toContain('seven');
      }
    });

    it('searches a datastore with its "Query Datastore" body and reads text, source and score of each hit', async () => {
      // searches/query_datastore.js: body {query}, JSON, the Zap's result is the array of hits.
      const reply = await send<SearchHitBody[]>(`${parley.url}/api/datastores/${datastoreId}/query`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...zapierHeaders() },
        body: JSON.stringify({ query: 'When does the bakery open?' }),
      });
      expect(reply.status).toBe(200);
      expect(reply.data[0]).toMatchObject({ text: HOURS, score: expect.any(Number), source: expect.any(String) });
    });

    it('uploads a file it downloaded, multipart with file and an empty fileName, to the path’s datastore', async () => {
      const host = await fileHost('delivery.txt', 'We deliver cakes across the city by bicycle courier for four euros.');
      try {
        // makeDownloadStream(bundle.inputData.file), then form-data names the part after the URL's path.
        const download = await fetch(host.url);
        const form = new FormData();
        form.append('file', new Blob([await download.arrayBuffer()], { type: download.headers.get('content-type')! }), 'delivery.txt');
        form.append('fileName', '');
        const reply = await send<DatasourceBody>(`${parley.url}/api/external/datastores/file-upload/${datastoreId}`, {
          method: 'POST',
          body: form,
          headers: { Authorization: `Bearer ${ws.key}` },
        });
        expect(reply.status).toBe(200);
        expect(reply.data).toMatchObject({ type: 'file', datastoreId, name: 'delivery.txt' });
        expect((await waitForDatasource(parley, ws.key, reply.data.id)).status).toBe('synched');
        const named = new FormData();
        named.append('file', new Blob(['Gift cards never expire.'], { type: 'text/plain' }), 'upload.txt');
        named.append('fileName', 'Gift cards');
        const withName = await send<DatasourceBody>(`${parley.url}/api/external/datastores/file-upload/${datastoreId}`, {
          method: 'POST',
          body: named,
          headers: { Authorization: `Bearer ${ws.key}` },
        });
        expect([withName.status, withName.data.name]).toEqual([200, 'Gift cards']);
        await parley.call('DELETE', `/datasources/${withName.data.id}`, { key: ws.key });
        await parley.call('DELETE', `/datasources/${reply.data.id}`, { key: ws.key });
      } finally {
        await host.close();
      }
    });

    it('gets a Datasource record it can read when a zap sends the same file again, byte for byte', async () => {
      const form = new FormData();
      form.append('file', new Blob(['Wedding cakes are ordered a month ahead.'], { type: 'text/plain' }), 'wedding.txt');
      form.append('fileName', '');
      // One multipart body, its boundary included, sent twice: a zap replayed, or run again on the same file.
      const request = new Request('http://body.invalid/', { method: 'POST', body: form });
      const body = new Uint8Array(await request.arrayBuffer());
      const headers = { Authorization: `Bearer ${ws.key}`, 'Content-Type': request.headers.get('content-type')! };
      const post = () => send<DatasourceBody>(`${parley.url}/api/external/datastores/file-upload/${datastoreId}`, { method: 'POST', body, headers });
      const first = await post();
      const again = await post();
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.data).toMatchObject({ id: first.data.id, type: 'file', datastoreId, name: 'wedding.txt', duplicateOf: first.data.id });
      // What the app's create step outputs: the record's fields, each of the type it declares.
      for (const key of ['id', 'name', 'status', 'datastoreId', 'createdAt', 'updatedAt'] as const) expect(typeof again.data[key]).toBe('string');
      await parley.call('DELETE', `/datasources/${first.data.id}`, { key: ws.key });
    });

    it('refuses an upload to another workspace’s datastore and one without a file', async () => {
      const other = await parley.newWorkspace();
      const form = new FormData();
      form.append('file', new Blob(['planted'], { type: 'text/plain' }), 'planted.txt');
      const foreign = await send<ErrorBody>(`${parley.url}/api/external/datastores/file-upload/${datastoreId}`, {
        method: 'POST',
        body: form,
        headers: { Authorization: `Bearer ${other.key}` },
      });
      expect([foreign.status, foreign.data.error]).toEqual([403, 'FORBIDDEN']);
      const empty = new FormData();
      empty.append('fileName', 'nothing');
      const missing = await send<ErrorBody>(`${parley.url}/api/external/datastores/file-upload/${datastoreId}`, {
        method: 'POST',
        body: empty,
        headers: { Authorization: `Bearer ${ws.key}` },
      });
      expect([missing.status, missing.data.error]).toEqual([400, 'INVALID_REQUEST']);
    });
  });

  // PipedreamHQ/pipedream components/chaindesk: chaindesk.app.mjs (_baseUrl .../api), actions/.
  describe('Pipedream’s Chaindesk components', () => {
    const pipedream = <T>(path: string, init: { method?: string; data?: unknown } = {}) =>
      send<T>(`${parley.url}/api${path}`, {
        method: init.method ?? 'GET',
        // _headers(): on every request, GET included.
        headers: { Authorization: `Bearer ${ws.key}`, 'Content-Type': 'application/json' },
        // axios drops undefined fields when it serialises `data`.
        body: init.data === undefined ? undefined : JSON.stringify(init.data),
      });

    it('lists agents as options, submits a message with no conversation id, and updates an agent with a hosted model name', async () => {
      const agents = await pipedream<AgentBody[]>('/agents');
      expect(agents.data.map(({ id: value, name: label }) => ({ label, value }))).toContainEqual({ label: 'Baker', value: agentId });

      const answer = await pipedream<AnswerBody>(`/agents/${agentId}/query`, {
        method: 'POST',
        data: { query: 'Can I get a refund?', conversationId: undefined },
      });
      expect(answer.status).toBe(200);
      expect(answer.data.answer).toContain('thirty days');

      for (const modelName of ['gpt_3_5_turbo', 'gpt_3_5_turbo_16k', 'gpt_4', 'gpt_4_32k']) {
        const updated = await pipedream<AgentBody>(`/agents/${agentId}`, {
          method: 'PATCH',
          data: { name: 'Baker', description: 'Answers about the bakery', modelName, visibility: 'private' },
        });
        expect(updated.status, modelName).toBe(200);
        expect(updated.data).toMatchObject({ modelName, description: 'Answers about the bakery' });
        expect((await parley.call<AgentBody>('GET', `/agents/${agentId}`, { key: ws.key })).body.modelName).toBe(modelName);
      }
      // The agent answers with the model its name stands for (offline: the built-in one).
      expect(
        (await pipedream<AnswerBody>(`/agents/${agentId}/query`, { method: 'POST', data: { query: 'When does the bakery open?' } })).data.answer,
      ).toContain('seven');
    });
  });

  // activepieces/activepieces packages/pieces/community/chaindesk: common/auth.ts, common/props.ts, actions/.
  describe('Activepieces’ Chaindesk piece', () => {
    const BASE_URL = () => `${parley.url}/api`;
    // httpClient with a bearer token; a JSON body is sent as application/json.
    const bearer = () => ({ Authorization: `Bearer ${ws.key}` });

    it('validates a key with GET /conversations (any 2xx), a bad key fails', async () => {
      await parley.call('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: 'When does the bakery open?' } });
      const valid = await send<ListedConversationBody[]>(`${BASE_URL()}/conversations`, { headers: bearer() });
      expect(valid.status).toBe(200);
      expect(valid.data.length).toBeGreaterThan(0);
      const same = await parley.call('GET', '/user-conversations', { key: ws.key });
      expect(valid.data).toEqual(same.body);
      expect((await send(`${BASE_URL()}/conversations`, { headers: { Authorization: 'Bearer pk_live_wrong' } })).status).toBe(401);
    });

    it('fills its dropdowns, queries an agent and a datastore', async () => {
      const agents = await send<{ id: string; name: string }[]>(`${BASE_URL()}/agents`, { headers: bearer() });
      expect(agents.data.map((agent) => ({ label: agent.name, value: agent.id }))).toContainEqual({ label: 'Baker', value: agentId });
      const datastores = await send<{ id: string; name: string }[]>(`${BASE_URL()}/datastores`, { headers: bearer() });
      expect(datastores.data.map((datastore) => datastore.id)).toContain(datastoreId);

      const json = { ...bearer(), 'Content-Type': 'application/json' };
      const answer = await send<AnswerBody>(`${BASE_URL()}/agents/${agentId}/query`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query: 'Can I get a refund?', conversationId: undefined }),
      });
      expect([answer.status, answer.data.answer?.includes('thirty days')]).toEqual([200, true]);
      const hits = await send<SearchHitBody[]>(`${BASE_URL()}/datastores/${datastoreId}/query`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query: 'refund' }),
      });
      expect(hits.status).toBe(200);
      expect(hits.data[0]).toMatchObject({ datasource_id: returnsId, text: RETURNS });
    });

    it('uploads a file: file, type, datastoreId and fileName as multipart to /datasources', async () => {
      const form = new FormData();
      form.append('file', new Blob(['Birthday cakes are ordered two days ahead.']), 'cakes.txt');
      form.append('type', 'file');
      form.append('datastoreId', datastoreId);
      form.append('fileName', 'cakes.txt');
      const reply = await send<DatasourceBody>(`${BASE_URL()}/datasources`, { method: 'POST', headers: bearer(), body: form });
      expect(reply.status).toBe(200);
      expect(reply.data).toMatchObject({ name: 'cakes.txt', datastoreId, status: 'unsynched' });
      await waitForDatasource(parley, ws.key, reply.data.id);
      await parley.call('DELETE', `/datasources/${reply.data.id}`, { key: ws.key });
    });

    it('uploads the same file twice and reads the datasource that holds it from the second 200', async () => {
      const form = new FormData();
      form.append('file', new Blob(['Croissants are baked twice a day.']), 'croissants.txt');
      form.append('type', 'file');
      form.append('datastoreId', datastoreId);
      form.append('fileName', 'croissants.txt');
      const request = new Request('http://body.invalid/', { method: 'POST', body: form });
      const body = new Uint8Array(await request.arrayBuffer());
      const headers = { ...bearer(), 'Content-Type': request.headers.get('content-type')! };
      const first = await send<DatasourceBody>(`${BASE_URL()}/datasources`, { method: 'POST', headers, body });
      const again = await send<DatasourceBody>(`${BASE_URL()}/datasources`, { method: 'POST', headers, body });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.data).toMatchObject({ id: first.data.id, name: 'croissants.txt', datastoreId, duplicateOf: first.data.id });
      expect(
        (await parley.call<DatasourceBody[]>('GET', `/datastores/${datastoreId}/datasources`, { key: ws.key })).body.filter(
          (d) => d.name === 'croissants.txt',
        ),
      ).toHaveLength(1);
      await waitForDatasource(parley, ws.key, first.data.id);
      await parley.call('DELETE', `/datasources/${first.data.id}`, { key: ws.key });
    });
  });

  // langchain-ai/langchain libs/community/langchain_community/retrievers/chaindesk.py, and langchainjs'
  // libs/langchain-community/src/retrievers/chaindesk.ts (and its older DataberryRetriever).
  describe('LangChain’s ChaindeskRetriever', () => {
    /** _get_relevant_documents: requests.post(datastore_url, json={query, topK}), then data["results"]. */
    async function pythonRetriever(
      datastoreUrl: string,
      topK: number | null,
    ): Promise<{ page_content: string; metadata: { source: string; score: number } }[]> {
      const response = await fetch(datastoreUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ws.key}` },
        body: JSON.stringify({ query: 'refund for goods', ...(topK === null ? {} : { topK }) }),
      });
      const data = (await response.json()) as { results: Record<string, unknown>[] };
      // r["text"], r["source"], r["score"]: a missing key is a KeyError in Python.
      return data.results.map((r) => {
        for (const key of ['text', 'source', 'score']) if (!(key in r)) throw new Error(`KeyError: '${key}'`);
        return { page_content: r.text as string, metadata: { source: r.source as string, score: r.score as number } };
      });
    }

    it('Python (and JS’s DataberryRetriever, which takes the URL too) read {results} at the path made for them, with or without /api', async () => {
      for (const url of [`${parley.url}/api/datastores/${datastoreId}/query/langchain`, `${parley.url}/datastores/${datastoreId}/query/langchain`]) {
        const documents = await pythonRetriever(url, 2);
        expect(documents).toHaveLength(2);
        expect(documents[0]!.page_content).toBe(RETURNS);
        // The source is the document's stable URL: Parley's URL of the datasource for a text.
        expect(documents[0]!.metadata.source).toBe(`${parley.core.publicUrl()}/datasources/${returnsId}`);
        expect(documents[0]!.metadata.score).toBeGreaterThan(documents[1]!.metadata.score);
      }
      expect(await pythonRetriever(`${parley.url}/api/datastores/${datastoreId}/query/langchain`, null)).toHaveLength(2);
    });

    it('JS’s ChaindeskRetriever finds the spec’s array on the shared path, so its `{results}` is undefined (README says why)', async () => {
      // Its URL is fixed to the hosted host's /api/datastores/{id}/query; replayed against Parley's.
      const response = await fetch(`${parley.url}/api/datastores/${datastoreId}/query`, {
        method: 'POST',
        body: JSON.stringify({ query: 'refund', topK: 2, filters: { custom_ids: ['returns'] } }),
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ws.key}` },
      });
      const body = (await response.json()) as SearchHitBody[] & { results?: unknown };
      expect(Array.isArray(body)).toBe(true);
      expect(body.results).toBeUndefined();
      expect(body.map((hit) => hit.datasource_id)).toEqual([returnsId]);
    });
  });

  describe('the hosted service’s values, read as the spec’s', () => {
    it('takes datastore types qdrant and pinecone as vector_a', async () => {
      // The public OpenAPI document's body: `qdrant` is its only datastore type.
      const qdrant = await parley.call<DatastoreBody>('POST', '/api/datastores', {
        key: ws.key,
        body: { name: 'docs', description: 'From the OpenAPI', type: 'qdrant' },
      });
      expect([qdrant.status, qdrant.body.type]).toEqual([200, 'vector_a']);
      await parley.call('DELETE', `/datastores/${qdrant.body.id}`, { key: ws.key });
      const created = await parley.call<DatastoreBody>('POST', '/api/datastores', {
        key: ws.key,
        body: { description: 'older client', type: 'pinecone' },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ type: 'vector_a', name: 'Untitled datastore' });
      const patched = await parley.call<DatastoreBody>('PATCH', `/api/datastores/${created.body.id}`, { key: ws.key, body: { type: 'qdrant' } });
      expect([patched.status, patched.body.type]).toEqual([200, 'vector_a']);
      expect((await parley.call<DatastoreBody>('GET', `/datastores/${datastoreId}`, { key: ws.key })).body.type).toBe('vector_a');
      expect((await parley.call<ErrorBody>('POST', '/datastores', { key: ws.key, body: { type: 'weaviate' } })).status).toBe(400);
      await parley.call('DELETE', `/datastores/${created.body.id}`, { key: ws.key });
    });

    it('takes the hosted channel names in bodies and filters, and answers with the spec’s', async () => {
      const asked: Record<string, string> = {};
      for (const channel of ['whatsapp', 'telegram', 'slack', 'crisp', 'zapier', 'email']) {
        const answer = await parley.call<AnswerBody>('POST', `/api/agents/${agentId}/query`, {
          key: ws.key,
          body: { query: 'When does the bakery open?', channel },
        });
        expect(answer.status, channel).toBe(200);
        asked[channel] = answer.body.conversationId;
      }
      const expected = {
        whatsapp: 'messenger_a',
        telegram: 'messenger_b',
        slack: 'team_chat',
        crisp: 'helpdesk',
        zapier: 'automation',
        email: 'mail',
      };
      for (const [channel, spec] of Object.entries(expected)) {
        const listed = await parley.call<ListedConversationBody[]>('GET', `/api/user-conversations?channel=${channel}&agentId=${agentId}`, {
          key: ws.key,
        });
        expect(
          listed.body.map((conversation) => [conversation.id, conversation.channel]),
          channel,
        ).toEqual([[asked[channel], spec]]);
      }
      // The next page's link keeps the prefix the client called with.
      const paged = await parley.call('GET', `/api/user-conversations?agentId=${agentId}&limit=1`, { key: ws.key });
      expect(paged.headers.get('link')).toMatch(/^<\/api\/user-conversations\?agentId=[^>]+&limit=1&cursor=[^>]+>; rel="next"$/);
      const updated = await parley.call<{ count: number }>('POST', `/api/conversations/update-status?channel=telegram&agentId=${agentId}`, {
        key: ws.key,
        body: { status: 'RESOLVED' },
      });
      expect(updated.body.count).toBe(1);
      const analytics = await parley.call<{ channels: string[] }>('GET', '/api/analytics?channel=zapier', { key: ws.key });
      expect([analytics.status, analytics.body.channels]).toEqual([200, ['automation']]);
    });

    it('lists the hosted model names, takes them on agents and questions, and answers a name nobody configured with UNKNOWN_MODEL', async () => {
      const models = await parley.call<ModelBody[]>('GET', '/api/models', { key: ws.key });
      const names = models.body.map((model) => model.name);
      for (const name of ['gpt_3_5_turbo', 'gpt_4', 'gpt_4_turbo', 'gpt_4o', 'gpt_4o_mini', 'claude_3_haiku', 'claude_3_5_sonnet', 'mixtral_8x7b'])
        expect(names).toContain(name);
      expect(models.body.find((model) => model.name === 'gpt_4o')).toMatchObject({
        name: 'gpt_4o',
        provider: 'local',
        model: 'local-extractive',
        providerId: null,
      });

      const agent = await parley.call<AgentBody>('POST', '/api/agents', {
        key: ws.key,
        body: { modelName: 'gpt_4o_mini', tools: [{ type: 'datastore', datastoreId }] },
      });
      expect([agent.status, agent.body.modelName]).toEqual([200, 'gpt_4o_mini']);
      const answer = await parley.call<AnswerBody>('POST', `/api/agents/${agent.body.id}/query`, {
        key: ws.key,
        body: { query: 'When does the bakery open?', modelName: 'claude_3_haiku' },
      });
      expect([answer.status, answer.body.answer?.includes('seven')]).toEqual([200, true]);

      for (const streaming of [false, true]) {
        const unknown = await parley.call<ErrorBody>('POST', `/api/agents/${agent.body.id}/query`, {
          key: ws.key,
          body: { query: 'Hello', modelName: 'gpt_99', streaming },
        });
        expect([unknown.status, unknown.body.error], `streaming ${streaming}`).toEqual([400, 'UNKNOWN_MODEL']);
      }
      await parley.call('DELETE', `/agents/${agent.body.id}`, { key: ws.key });
    });
  });

  describe('the API docs’ examples', () => {
    it('reads a web page datasource’s JSON sent as text/plain (the example’s misspelt header)', async () => {
      const page = http.createServer((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><h1>Menu</h1><p>Croissants every morning.</p></body></html>'),
      );
      const site = await listenOnLoopback(page);
      try {
        const response = await fetch(`${parley.url}/api/datasources`, {
          method: 'POST',
          // fetch labels a string body text/plain when the Content-Type header is misspelt.
          headers: { Authorization: `Bearer ${ws.key}`, 'Content-Types': 'application/json' },
          body: JSON.stringify({ type: 'web_page', datastoreId, config: { source_url: `${site}/menu` } }),
        });
        expect(response.status).toBe(200);
        const created = (await response.json()) as DatasourceBody;
        expect(created).toMatchObject({ type: 'web_page', datastoreId });
        expect((await waitForDatasource(parley, ws.key, created.id)).status).toBe('synched');
        // A web page's hits point at the page itself.
        const hits = await parley.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, {
          key: ws.key,
          body: { query: 'croissants', filters: { datasource_id: created.id } },
        });
        expect(hits.body.map((hit) => hit.source)).toEqual([`${site}/menu`]);
        await parley.call('DELETE', `/datasources/${created.id}`, { key: ws.key });
        const notJson = await parley.call<ErrorBody>('POST', '/datasources', {
          key: ws.key,
          raw: 'type=text',
          headers: { 'content-type': 'text/plain' },
        });
        expect([notJson.status, notJson.body.error]).toEqual([400, 'INVALID_REQUEST']);
      } finally {
        await closeServer(page);
      }
    });

    it('filters by a singular custom_id or datasource_id like the plural lists, on datastore and agent queries', async () => {
      const search = (filters: Record<string, unknown>) =>
        parley.call<SearchHitBody[]>('POST', `/api/datastores/${datastoreId}/query`, {
          key: ws.key,
          body: { query: 'bakery opens refund', topK: 10, filters },
        });
      expect((await search({ custom_id: 'hours' })).body.map((hit) => hit.datasource_id)).toEqual([hoursId]);
      expect((await search({ datasource_id: returnsId })).body.map((hit) => hit.datasource_id)).toEqual([returnsId]);
      expect(new Set((await search({ custom_id: 'hours', custom_ids: ['returns'] })).body.map((hit) => hit.datasource_id))).toEqual(
        new Set([hoursId, returnsId]),
      );
      expect((await search({ custom_id: 'hours', datasource_id: returnsId })).body).toEqual([]);

      // Sources are the passages an answer cites: a question the filtered-out document answers cites none of it.
      const ask = async (query: string) =>
        (await parley.call<AnswerBody>('POST', `/api/agents/${agentId}/query`, { key: ws.key, body: { query, filters: { custom_id: 'returns' } } }))
          .body;
      expect((await ask('Can I get a refund?')).sources?.map((source) => source.datasource_id)).toEqual([returnsId]);
      expect((await ask('When does the bakery open?')).sources?.map((source) => source.datasource_id)).not.toContain(hoursId);
    });
  });
});
