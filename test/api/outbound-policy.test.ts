import { afterAll, afterEach, describe, expect, vi } from 'vitest';
import { newId, now } from '../../src/domain/ids.js';
import { waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { FakeOpenAIChatServer } from '../support/fake-openai-chat-server.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest as it } from '../support/parley-test.js';
import { resolveNames } from '../support/resolve-names.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { detailFields, type AgentBody, type DatasourceBody, type DatastoreBody, type DeliveryBody, type ErrorBody } from '../support/bodies.js';

/** A conversation with a new message in it: a `message.created` event for the workspace's webhooks. */
async function writeMessage(parley: TestParley, workspaceId: string): Promise<void> {
  const conversations = parley.core.services.conversations;
  const { conversation } = await conversations.intake.start(workspaceId, { agentId: null, channel: 'api' });
  await conversations.messages.add(workspaceId, conversation.id, { from: 'human', text: 'hello' });
}

/** The endpoint's deliveries once the first has failed for good. */
async function failedDelivery(parley: TestParley, ws: Workspace, endpointId: string): Promise<DeliveryBody> {
  const [delivery] = await until(
    async () => (await parley.call<DeliveryBody[]>('GET', `/webhooks/${endpointId}/deliveries`, { key: ws.key })).body,
    (list) => list[0]?.status === 'failed',
  );
  return delivery!;
}

describe('PARLEY_OUTBOUND_ALLOW=loopback, as every test runs Parley', () => {
  let parley: TestParley;
  let ws: Workspace;
  let receiver: WebhookReceiver;

  it.beforeAll(async ({ startParley }) => {
    receiver = await WebhookReceiver.start();
    parley = await startParley('sqlite', { workers: true });
    ws = await parley.newWorkspace();
  });
  afterAll(() => receiver?.close());
  afterEach(() => vi.restoreAllMocks());

  it('is what the test harness starts Parley with', () => {
    expect(parley.config.outbound.setting).toBe('loopback');
  });

  it.each([
    ['https://example.com/hook', 'example.com is not a listed host'],
    ['http://93.184.215.14/hook', '93.184.215.14 is a public address'],
    ['http://[2606:2800:220:1::]/hook', '2606:2800:220:1:: is a public address'],
  ])('refuses to save a webhook to %s, without asking DNS', async (url, what) => {
    // Were it asked, the resolver would answer with this machine, so even a broken guard reaches nothing outside.
    const dns = resolveNames({ 'example.com': [{ address: '127.0.0.1', family: 4 }] });
    const refused = await parley.call<ErrorBody>('POST', '/webhooks', { key: ws.key, body: { url, events: ['message.created'] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: 'INVALID_REQUEST',
      message: `Webhook URL refused: ${what}, which PARLEY_OUTBOUND_ALLOW=loopback does not allow`,
    });
    expect(detailFields(refused.body)).toEqual(['body.url']);
    expect(dns.asked).toEqual([]);
  });

  it('saves and delivers to this machine', async () => {
    const created = await parley.call<{ id: string }>('POST', '/webhooks', { key: ws.key, body: { url: receiver.url, events: ['message.created'] } });
    expect(created.status).toBe(200);
    await writeMessage(parley, ws.id);
    await until(
      () => receiver.received,
      (received) => received.length > 0,
    );
    await parley.call('DELETE', `/webhooks/${created.body.id}`, { key: ws.key });
  });

  it('refuses, before any lookup or connection, a delivery to a public name saved before the policy', async () => {
    // An endpoint left behind by a wider policy (or written by an older version): the store holds it as it is.
    const port = new URL(receiver.url).port;
    const endpoint = {
      id: newId(),
      workspaceId: ws.id,
      url: `http://hooks.example.com:${port}/hook`,
      events: ['message.created'],
      description: 'saved before the policy',
      secret: 'whsec_test',
      enabled: true,
      source: 'webhooks' as const,
      createdAt: now(),
      updatedAt: now(),
    };
    await parley.core.store.webhooks.create(endpoint);
    const dns = resolveNames({ 'hooks.example.com': [{ address: '127.0.0.1', family: 4 }] });
    const before = receiver.received.length;

    await writeMessage(parley, ws.id);
    const delivery = await failedDelivery(parley, ws, endpoint.id);
    // Refused for good on the first attempt: a retry cannot change the policy.
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.lastError).toBe('hooks.example.com is not a listed host, which PARLEY_OUTBOUND_ALLOW=loopback does not allow');
    expect(dns.asked).toEqual([]);
    expect(receiver.received.length).toBe(before);
  });

  it('refuses a web page on a public host when the datasource is added', async () => {
    const datastore = await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} });
    for (const [url, what] of [
      ['https://docs.example.com/page', 'docs.example.com is not a listed host'],
      ['http://93.184.215.14/page', '93.184.215.14 is a public address'],
    ]) {
      const refused = await parley.call<ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_page', datastoreId: datastore.body.id, config: { source_url: url } },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(`Parley does not fetch this page: ${what}, which PARLEY_OUTBOUND_ALLOW=loopback does not allow`);
      expect(detailFields(refused.body)).toEqual(['body.config.source_url']);
    }
  });
});

/**
 * As an operator runs Parley (public addresses only): a web page on a private address, named as one or
 * behind a host name, is refused with a message naming the setting that would allow it, when added and
 * when fetched.
 */
describe('PARLEY_OUTBOUND_ALLOW=public, the default', () => {
  let parley: TestParley;
  let ws: Workspace;
  const REFUSED = 'which PARLEY_OUTBOUND_ALLOW=public does not allow';

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley('sqlite', { workers: true, env: { PARLEY_OUTBOUND_ALLOW: 'public' } });
    ws = await parley.newWorkspace();
  });
  afterEach(() => vi.restoreAllMocks());

  it('refuses a web page on a private address, naming the setting: when added, and when its name resolves there', async () => {
    const datastore = await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} });
    const add = (url: string) =>
      parley.call<DatasourceBody & ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_page', datastoreId: datastore.body.id, config: { source_url: url } },
      });

    const refused = await add('http://10.0.0.5/handbook');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`Parley does not fetch this page: 10.0.0.5 is a private address, ${REFUSED}`);
    expect(refused.body.details).toEqual([{ field: 'body.config.source_url', message: `10.0.0.5 is a private address, ${REFUSED}` }]);

    resolveNames({ 'intranet.example.com': [{ address: '10.0.0.5', family: 4 }] });
    const accepted = await add('http://intranet.example.com/handbook');
    expect(accepted.status).toBe(200);
    const fetched = await waitForDatasource(parley, ws.key, accepted.body.id);
    expect(fetched).toMatchObject({ status: 'error', error: `intranet.example.com resolves to 10.0.0.5, a private address, ${REFUSED}` });
  });
});

/**
 * Every kind of outbound connection, each to a real server on 127.0.0.1, under a policy that allows only
 * 127.0.0.2: any connection that slipped past the policy would reach one of these servers, and nothing
 * outside this machine.
 */
describe('the outbound policy on every connection Parley makes', () => {
  const chat = new FakeOpenAIChatServer();
  const embeddings = new FakeEmbeddingsServer();
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let parley: TestParley;
  let ws: Workspace;

  it.beforeAll(async ({ startParley }) => {
    smtp = await SmtpSink.start();
    receiver = await WebhookReceiver.start();
    parley = await startParley('sqlite', {
      workers: true,
      env: {
        PARLEY_OUTBOUND_ALLOW: '127.0.0.2',
        PARLEY_MODELS: JSON.stringify({ remote: { provider: 'openai-compatible', model: 'fake-chat', baseURL: await chat.start() } }),
        PARLEY_EMBEDDINGS_URL: await embeddings.start(),
        PARLEY_EMBEDDINGS_MODEL: 'fake-embed',
        PARLEY_SMTP_URL: smtp.url,
        PARLEY_JOB_MAX_ATTEMPTS: '1',
      },
    });
    ws = await parley.newWorkspace();
  });
  afterAll(() => Promise.all([chat.stop(), embeddings.stop(), smtp?.close(), receiver?.close()]));

  const REFUSED = 'which PARLEY_OUTBOUND_ALLOW=127.0.0.2 does not allow';

  it('webhooks: refused when saved', async () => {
    const refused = await parley.call<ErrorBody>('POST', '/webhooks', { key: ws.key, body: { url: receiver.url, events: ['message.created'] } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`Webhook URL refused: 127.0.0.1 is a loopback address, ${REFUSED}`);
  });

  it('model providers: the chat model is never called', async () => {
    const agent = await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'remote', modelName: 'remote' } });
    const answer = await parley.call<ErrorBody>('POST', `/agents/${agent.body.id}/query`, { key: ws.key, body: { query: 'Hello?' } });
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('MODEL_UNAVAILABLE');
    expect(chat.requests).toEqual([]);
  });

  it('embeddings: ingestion fails without a request to the endpoint', async () => {
    const datastore = await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: {} });
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId: datastore.body.id, text: 'A short note to index.' },
    });
    expect((await waitForDatasource(parley, ws.key, created.body.id)).status).toBe('error');
    expect(embeddings.requests).toEqual([]);
  });

  it('SMTP: a notification e-mail fails for good, and the server sees no connection', async () => {
    await parley.newMember(ws.id, 'owner');
    const conversations = parley.core.services.conversations;
    const { conversation } = await conversations.intake.start(ws.id, { agentId: null, channel: 'api' });
    await parley.call('PATCH', `/conversations/${conversation.id}`, { key: ws.key, body: { status: 'HUMAN_REQUESTED' } });
    const [email] = await until(
      async () => (await parley.call<DeliveryBody[]>('GET', '/workspace/email-deliveries', { key: ws.key })).body,
      (list) => list[0]?.status === 'failed',
    );
    expect(email!.attemptCount).toBe(1);
    expect(email!.lastError).toBe(`127.0.0.1 is a loopback address, ${REFUSED}`);
    expect(smtp.mails).toEqual([]);
  });
});
