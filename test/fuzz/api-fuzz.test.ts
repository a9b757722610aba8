import http from 'node:http';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/http/routes/auth.js';
import { seedWorkspace, type Seed } from '../api/route-table.js';
import type { AnswerBody } from '../support/bodies.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { connectBare } from '../support/migrations.js';
import { responseChecker, type OpenApiDocument } from '../support/openapi.js';
import type { SignedInMember, TestParley } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { requestsFor, type FuzzOperation, type FuzzRequest } from './route-requests.js';
import { resolverOf } from './schema-arbitrary.js';
import { storeSnapshotter, type Snapshotter, type StoreSnapshot } from './store-snapshot.js';

/** Generated requests per route: bounded in `npm test`, `npm run fuzz` raises it. */
const RUNS = Number(process.env.PARLEY_FUZZ_RUNS ?? 15);

/** Which of the seed's records an id names: a path's `{id}` by the path's first segment, other ids by their name. */
function knownIdsOf(seed: Seed) {
  const byCollection: Readonly<Record<string, readonly string[]>> = {
    keys: [seed.keyId],
    agents: [seed.agentId],
    datastores: [seed.datastoreId],
    datasources: [seed.datasourceId],
    conversations: [seed.conversationId],
    'user-conversations': [seed.conversationId],
    messages: [seed.messageId],
    webhooks: [seed.webhookId],
    hooks: [seed.hookId],
    members: [seed.memberId],
    channels: [seed.channelConnectionId],
    'saved-replies': [seed.savedReplyId],
    labels: [seed.labelId],
  };
  const byField: Readonly<Record<string, readonly string[]>> = {
    deliveryId: [seed.deliveryId],
    datastoreId: [seed.datastoreId],
    agentId: [seed.agentId],
    conversationId: [seed.conversationId],
    messageId: [seed.messageId],
    memberId: [seed.memberId],
    assigneeId: [seed.memberId],
    since: [seed.eventId],
    labelId: [seed.labelId],
    labelIds: [seed.labelId],
    attachmentId: [seed.attachment.id],
  };
  return (path: string, name: string) => (name === 'id' ? (byCollection[path.split('/')[1] ?? ''] ?? []) : (byField[name] ?? []));
}

const isVisitorRoute = (path: string) => path.startsWith('/agents/{id}/conversation');

/** Endless streams: only their status and headers are looked at. */
const isEndlessStream = (path: string) => path.endsWith('/stream') || path.endsWith('/conversation/events');

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A stack frame, a source position, a driver's name or its words: what an error body must never show. */
const INTERNALS =
  /\n\s+at |node_modules|\.[jt]s:\d+:\d+|SqliteError|better-sqlite3|pg-protocol|violates .* constraint|syntax error at or near|TypeError|RangeError|ReferenceError/;

describe.each(STORE_KINDS)('every route, fuzzed from its own schema, on %s', (kind) => {
  let parley: TestParley;
  let embeddings: FakeEmbeddingsServer;
  let db: Kysely<unknown>;
  let snapshot: Snapshotter;
  let seed: Seed;
  let member: SignedInMember;
  let visitorToken: string;
  let operations: FuzzOperation[];
  let document: OpenApiDocument;
  let checkResponse: ReturnType<typeof responseChecker>;
  /** Routes that accepted at least one generated request: the handler behind the validation was reached. */
  const accepted = new Set<string>();
  /** The store as the last accepted request left it. */
  let current: StoreSnapshot;

  parleyTest.beforeAll(async ({ startParley }) => {
    embeddings = new FakeEmbeddingsServer();
    const embeddingsUrl = await embeddings.start();
    parley = await startParley(kind, {
      env: {
        PARLEY_EMBEDDINGS_URL: embeddingsUrl,
        PARLEY_EMBEDDINGS_MODEL: 'fake-embed',
        // Thousands of requests on one key and one address: the limits would answer for the routes.
        PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '1000000',
        PARLEY_RATE_LIMIT_IP_PER_MINUTE: '1000000',
        PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE: '1000000',
      },
    });
    seed = await seedWorkspace(parley);
    member = await parley.newMember(seed.a.id);
    // The widget's routes serve a visitor of a public agent: their token comes with their first answer.
    await parley.call('PATCH', `/agents/${seed.agentId}`, { key: seed.a.key, body: { visibility: 'public' } });
    visitorToken = (await parley.call<AnswerBody>('POST', `/agents/${seed.agentId}/query`, { key: null, body: { query: 'Hello?' } })).body
      .visitorToken;
    expect(visitorToken).toEqual(expect.any(String));
    document = (await parley.call<OpenApiDocument>('GET', '/openapi.json')).body;
    checkResponse = responseChecker(document);
    operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods ?? {}).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation: operation! })),
    );
    db = connectBare(parley.scratch);
    snapshot = await storeSnapshotter(db, kind);
    current = await snapshot();
  });
  afterAll(async () => {
    await db?.destroy();
    await embeddings?.stop();
  });

  /** The workspace's key on its API; the member's session and token on their own routes; the visitor's token on theirs. */
  const credentials = (path: string): Record<string, string> => {
    if (path === '/me' || path.startsWith('/auth/'))
      return { authorization: `Bearer ${member.accessToken}`, cookie: `${SESSION_COOKIE}=${member.sessionSecret}` };
    return { authorization: `Bearer ${isVisitorRoute(path) ? visitorToken : seed.a.key}` };
  };

  /**
   * Over node:http, not fetch: fetch refuses bodies on GET and would tidy `..` and broken escapes out of the
   * path before the server sees them.
   */
  function send(request: FuzzRequest, path: string): Promise<Answer> {
    const headers: Record<string, string> = { ...credentials(path) };
    if (request.contentType !== undefined) headers['content-type'] = request.contentType;
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    return new Promise((resolve, reject) => {
      const outgoing = http.request(parley.url + '/', { method: request.method, path: request.url, headers }, (response) => {
        const status = response.statusCode ?? 0;
        const contentType = response.headers['content-type'] ?? '';
        if (contentType.startsWith('text/event-stream') && isEndlessStream(path)) {
          response.destroy();
          return resolve({ status, contentType, text: '' });
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status, contentType, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  }

  /** What every answer must be; for a refusal also that the store is as it was, for an acceptance the documented shape. */
  async function check(request: FuzzRequest, path: string): Promise<void> {
    const answer = await send(request, path);
    if (answer.status < 300) accepted.add(`${request.method} ${path}`);
    const what = `${request.method} ${request.url.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 500)}`;
    expect(answer.status, what).toBeLessThan(500);
    const after = await snapshot();
    if (answer.status >= 400) {
      expect(answer.contentType, what).toMatch(/^application\/json/);
      const body = JSON.parse(answer.text) as { error?: unknown; message?: unknown };
      expect(body.error, what).toMatch(/^[A-Z_]+$/);
      expect(body.message, what).toEqual(expect.any(String));
      expect(answer.text, what).not.toMatch(INTERNALS);
      expect(after, `a refused request changed the store: ${what}`).toEqual(current);
    } else if (answer.contentType.startsWith('application/json')) {
      expect(checkResponse(request.method, path, answer.status, JSON.parse(answer.text)), `the answer is not as documented: ${what}`).toEqual([]);
    }
    current = after;
  }

  /**
   * The visitor's routes first, while their agent is surely public; deletions and signing out late, so the
   * routes before them meet the seeded records and the member's session alive; the workspace settings last, as they may lower the workspace's own rate limits and leave
   * the routes after them nothing but 429s.
   */
  const order = ({ method, path }: FuzzOperation) =>
    path === '/workspace/settings' && method === 'PATCH' ? 3 : method === 'DELETE' || path === '/auth/sign-out' ? 2 : isVisitorRoute(path) ? 0 : 1;

  it('takes a snapshot that sees a change in any table, but not a credential being used', async () => {
    const before = await snapshot();
    await parley.core.store.apiKeys.markUsed(seed.a.id, seed.keyId, new Date().toISOString());
    expect(await snapshot()).toEqual(before);
    await parley.core.services.conversations.messages.add(seed.a.id, seed.conversationId, { from: 'human', text: 'one more' });
    const after = await snapshot();
    expect(Object.keys(after).filter((table) => after[table] !== before[table])).toEqual(expect.arrayContaining(['message']));
    current = after;
  });

  it('covers every route of the OpenAPI document', () => {
    const documented = operations.map((operation) => `${operation.method} ${operation.path}`);
    const registered = parley.app.registeredRoutes
      .filter((route) => !route.hidden)
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual(registered.sort());
  });

  it('never answers 5xx, and a refused request is a JSON error that changes nothing', { timeout: Math.max(120_000, RUNS * 5_000) }, async () => {
    const resolve = resolverOf(document.components.schemas);
    const known = knownIdsOf(seed);
    for (const target of [...operations].sort((a, b) => order(a) - order(b))) {
      await fc.assert(
        fc.asyncProperty(requestsFor(target, resolve, known), (request) => check(request, target.path)),
        { numRuns: RUNS, endOnFailure: true },
      );
    }
    // A generator whose requests all fail validation would pass the above without testing any handler.
    expect(accepted.size, [...accepted].join('\n')).toBeGreaterThan(operations.length * 0.7);
  });
});
