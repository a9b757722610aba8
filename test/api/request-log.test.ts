import { afterAll, describe, expect, it } from 'vitest';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import type { ErrorBody } from '../support/bodies.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { INGEST_JOB } from '../../src/domain/ingestion/ingest-job.js';
import { waitForDatasource } from '../support/datasources.js';

/** Each credential-carrying query parameter, spelt as a client might, with a value to look for in the log. */
const SECRET_PARAMETERS = [
  ...['api_key', 'API_KEY', 'apikey', 'key', 'Token', 'access_token', 'visitor_token', 'api%5Fkey'],
  // camelCase, kebab-case, PHP- and Rails-style arrays and maps, encoded brackets, other credentials.
  ...[
    'visitorToken',
    'VisitorToken',
    'visitor-token',
    'apiKey',
    'accessToken',
    'token[]',
    'token[0]',
    'token%5B%5D',
    'auth[api_key]',
    'password',
    'client_secret',
  ],
].map((name, index) => [name, `leaked-secret-${index}-${Math.random().toString(36).slice(2)}`] as const);

describe.each(STORE_KINDS)('request log on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  const lines: string[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: { PARLEY_LOG_LEVEL: 'info' }, logStream: { write: (line) => lines.push(line) } });
    ws = await parley.newWorkspace();
  });

  /** The log lines of one request, once its completion has been logged. */
  async function linesOf(requestId: string): Promise<string[]> {
    return until(
      () => lines.filter((line) => line.includes(requestId)),
      (mine) => mine.some((line) => line.includes('request completed')),
    );
  }

  it.each(SECRET_PARAMETERS)('logs ?%s= as [REDACTED], keeping the other parameters', async (name, secret) => {
    const response = await parley.call<ErrorBody>('GET', `/agents?limit=5&${name}=${secret}&q=visible`, { key: null });
    expect(response.status).toBe(401);
    const logged = await linesOf(response.body.requestId);
    expect(logged.join('\n')).not.toContain(secret);
    const completed = JSON.parse(logged.find((line) => line.includes('request completed'))!);
    expect(completed.req.url).toBe(`/agents?limit=5&${name}=[REDACTED]&q=visible`);
  });

  it('redacts every one of a repeated credential parameter', async () => {
    const response = await parley.call<ErrorBody>('GET', '/agents?token=first-secret&token[]=second-secret&q=1&visitorToken=third-secret', {
      key: null,
    });
    const logged = (await linesOf(response.body.requestId)).join('\n');
    for (const secret of ['first-secret', 'second-secret', 'third-secret']) expect(logged).not.toContain(secret);
    expect(logged).toContain('"url":"/agents?token=[REDACTED]&token[]=[REDACTED]&q=1&visitorToken=[REDACTED]"');
  });

  it('redacts the token of an invitation link, in the API route’s path and in the dashboard pages’ query', async () => {
    const token = `invitation-secret-${Math.random().toString(36).slice(2)}`;
    const invitation = await parley.call<ErrorBody>('GET', `/auth/invitations/${token}`, { key: null });
    expect(invitation.status).toBe(404);
    const [line] = await linesOf(invitation.body.requestId);
    expect(line).not.toContain(token);
    expect(JSON.parse(line!)).toMatchObject({ req: { url: '/auth/invitations/[REDACTED]' }, route: '/auth/invitations/:token' });
    const prefixed = await parley.call<ErrorBody>('GET', `/api/auth/invitations/${token}`, { key: null });
    const [prefixedLine] = await linesOf(prefixed.body.requestId);
    expect(prefixedLine).not.toContain(token);
    expect(JSON.parse(prefixedLine!)).toMatchObject({ req: { url: '/api/auth/invitations/[REDACTED]' } });
    for (const page of ['/dashboard/invitations', '/dashboard/reset-password', '/dashboard/setup']) {
      const response = await parley.call('GET', `${page}?token=${token}`, { key: null });
      const logged = await linesOf(response.headers.get('x-request-id')!);
      expect(logged.join('\n')).not.toContain(token);
      expect(JSON.parse(logged[0]!).req.url).toBe(`${page}?token=[REDACTED]`);
    }
  });

  it('logs a path under /api as the client sent it, with the route as registered', async () => {
    const response = await parley.call('GET', '/api/agents?limit=1', { key: ws.key });
    expect(response.status).toBe(200);
    const completed = JSON.parse((await linesOf(response.headers.get('x-request-id')!)).find((line) => line.includes('request completed'))!);
    expect(completed).toMatchObject({ req: { url: '/api/agents?limit=1' }, route: '/agents', status: 200 });
  });

  it('never logs the Authorization header or cookies', async () => {
    const response = await parley.call('GET', '/agents?api_key', {
      key: ws.key,
      headers: { cookie: 'session=cookie-secret-value' },
    });
    expect(response.status).toBe(200);
    const logged = (await linesOf(response.headers.get('x-request-id')!)).join('\n');
    expect(logged).not.toContain(ws.key);
    expect(logged).not.toContain('cookie-secret-value');
    expect(logged).toContain('"url":"/agents?api_key=[REDACTED]"');
  });

  it('writes one line per request: id, method, URL, route, status, duration and workspace', async () => {
    const response = await parley.call('GET', '/agents/no-such-agent', { key: ws.key });
    expect(response.status).toBe(404);
    const requestId = response.headers.get('x-request-id')!;
    const logged = await linesOf(requestId);
    expect(logged).toHaveLength(1);
    const line = JSON.parse(logged[0]!);
    expect(line).toMatchObject({
      level: 30,
      reqId: requestId,
      msg: 'request completed',
      req: { method: 'GET', url: '/agents/no-such-agent' },
      route: '/agents/:id',
      status: 404,
      workspaceId: ws.id,
    });
    expect(line.ms).toBeGreaterThan(0);
    // Anonymous callers have no workspace, and a route that does not exist has none either.
    const anonymous = await parley.call<ErrorBody>('GET', '/nowhere', { key: null });
    const [unrouted] = await linesOf(anonymous.headers.get('x-request-id')!);
    expect(JSON.parse(unrouted!)).toMatchObject({ status: 404, req: { url: '/nowhere' } });
    expect(JSON.parse(unrouted!)).not.toHaveProperty('workspaceId');
  });

  it('censors headers should anything log them', () => {
    const headers = { authorization: `Bearer ${ws.key}`, cookie: 'session=abc-cookie', accept: 'application/json' };
    parley.app.log.info({ headers }, 'top-level headers');
    parley.app.log.info({ request: { headers } }, 'nested headers');
    const [top, nested] = lines.slice(-2).map((line) => {
      expect(line).not.toContain(ws.key);
      expect(line).not.toContain('abc-cookie');
      return JSON.parse(line);
    });
    const censored = { authorization: '[REDACTED]', cookie: '[REDACTED]', accept: 'application/json' };
    expect(top.headers).toEqual(censored);
    expect(nested.request.headers).toEqual(censored);
  });
});

describe.each(STORE_KINDS)('a request id followed into the work it causes on %s', (kind) => {
  let parley: TestParley;
  let receiver: WebhookReceiver;

  parleyTest.beforeAll(async ({ startParley }) => {
    receiver = await WebhookReceiver.start();
    parley = await startParley(kind, { workers: true });
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('is carried by the ingestion job, the event it writes and the webhook delivery of that event', async () => {
    const ws = await parley.newWorkspace();
    await parley.call('POST', '/webhooks', { key: ws.key, body: { url: receiver.url, events: ['datasource.synched'], description: 'trace' } });
    const datastore = await parley.call<{ id: string }>('POST', '/datastores', { key: ws.key, body: { name: 'traced' } });
    const created = await parley.call<{ id: string }>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId: datastore.body.id, name: 'note', text: 'A short note to index.' },
    });
    const requestId = created.headers.get('x-request-id')!;
    await waitForDatasource(parley, ws.key, created.body.id);
    const { store } = parley.core;
    const jobs = await until(
      () => store.jobs.list({}),
      (all) => all.some((job) => job.kind !== INGEST_JOB && job.status === 'done'),
    );
    const ingest = jobs.find((job) => job.kind === INGEST_JOB && job.payload.datasourceId === created.body.id);
    expect(ingest?.requestId).toBe(requestId);
    const [synched] = (await store.outbox.list({ workspaceId: ws.id })).filter((event) => event.type === 'datasource.synched');
    expect(synched?.requestId).toBe(requestId);
    const deliveries = jobs.filter((job) => job.kind !== INGEST_JOB);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((job) => job.requestId === requestId)).toBe(true);
  });
});
