import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { EventDispatcher } from '../../src/events/event-dispatcher.js';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { uploadFile } from '../support/datasources.js';
import { createScratchStore, STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  eventOf,
  undeclared,
  type CreatedWebhookBody,
  type ListedWebhookBody,
  type DatasourceBody,
  type DatastoreBody,
  type DeliveryBody,
  type ErrorBody,
  type PatchedConversationBody,
  type WebhookBody,
} from '../support/bodies.js';

/** The receiver's check, exactly as the README documents it. */
function verifyParleySignature(secret: string, rawBody: string, header: string, toleranceSeconds = 300): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

/** Fast retries so a test sees several attempts within seconds. */
const FAST_RETRIES = { PARLEY_JOB_RETRY_BASE_SECONDS: '0.3', PARLEY_JOB_RETRY_MAX_SECONDS: '1' };

describe.each(STORE_KINDS)('webhooks (%s)', (kind) => {
  let parley: TestParley;
  let receiver: WebhookReceiver;
  let ws: Workspace;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true, env: FAST_RETRIES });
    receiver = await WebhookReceiver.start();
    ws = await parley.newWorkspace();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const createWebhook = async (events: string[], workspace = ws) => {
    const created = await parley.call<CreatedWebhookBody>('POST', '/webhooks', {
      key: workspace.key,
      body: { url: receiver.url, events, description: 'test' },
    });
    expect(created.status).toBe(200);
    return created.body;
  };

  const startConversation = async (workspace = ws) => {
    const conversations = parley.core.services.conversations;
    const { conversation } = await conversations.intake.start(workspace.id, { agentId: null, channel: 'website' });
    await conversations.messages.add(workspace.id, conversation.id, { from: 'human', text: 'My order never arrived' });
    return conversation.id;
  };

  const deliveriesOf = async (webhookId: string) =>
    (await parley.call<DeliveryBody[]>('GET', `/webhooks/${webhookId}/deliveries`, { key: ws.key })).body;

  it('manages endpoints: the secret is shown once, fields change, unknown events and bad URLs are refused', async () => {
    const created = await parley.call<CreatedWebhookBody>('POST', '/webhooks', {
      key: ws.key,
      body: { url: receiver.url, events: ['conversation-resolved', 'datasource.error'], description: 'CRM' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      url: receiver.url,
      events: ['conversation-resolved', 'datasource.error'],
      description: 'CRM',
      enabled: true,
    });
    expect(created.body.secret).toMatch(/^whsec_.{40,}/);
    const { id } = created.body;

    const read = await parley.call<WebhookBody>('GET', `/webhooks/${id}`, { key: ws.key });
    expect(read.status).toBe(200);
    expect(undeclared(read.body, 'secret')).toBeUndefined();
    expect(JSON.stringify((await parley.call('GET', '/webhooks', { key: ws.key })).body)).not.toContain(created.body.secret);

    const patched = await parley.call<WebhookBody>('PATCH', `/webhooks/${id}`, {
      key: ws.key,
      body: { events: ['human-requested'], enabled: false },
    });
    expect(patched.body).toMatchObject({ id, events: ['human-requested'], enabled: false, description: 'CRM' });

    for (const body of [
      { url: receiver.url, events: ['order.shipped'] },
      { url: receiver.url, events: [] },
      { url: 'not a url', events: ['message.created'] },
      { url: 'ftp://example.com/hook', events: ['message.created'] },
      { events: ['message.created'] },
    ]) {
      const refused = await parley.call<ErrorBody>('POST', '/webhooks', { key: ws.key, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe('INVALID_REQUEST');
    }

    expect((await parley.call('DELETE', `/webhooks/${id}`, { key: ws.key })).status).toBe(200);
    expect((await parley.call('GET', `/webhooks/${id}`, { key: ws.key })).status).toBe(404);
  });

  it('signs each delivery so that the documented recipe verifies it, and carries the event', async () => {
    const webhook = await createWebhook(['conversation-resolved']);
    const conversationId = await startConversation();
    const before = receiver.received.length;
    const patched = await parley.call<PatchedConversationBody>('PATCH', `/conversations/${conversationId}`, {
      key: ws.key,
      body: { status: 'RESOLVED' },
    });
    expect(patched.status).toBe(200);

    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    expect(request!.headers['parley-event']).toBe('conversation-resolved');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(verifyParleySignature(webhook.secret, request!.body, String(request!.headers['parley-signature']))).toBe(true);
    expect(verifyParleySignature(webhook.secret, request!.body.replace('RESOLVED', 'UNRESOLVED'), String(request!.headers['parley-signature']))).toBe(
      false,
    );
    expect(verifyParleySignature('whsec_wrong', request!.body, String(request!.headers['parley-signature']))).toBe(false);

    const event = eventOf<'conversation-resolved'>(request!.body);
    expect(event).toMatchObject({ type: 'conversation-resolved', workspaceId: ws.id, data: { conversationId, status: 'RESOLVED' } });
    expect(event.id).toMatch(/^evt_/);
    expect(event.data.messages.map((m) => m.text)).toContain('My order never arrived');
    await until(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    await parley.call('DELETE', `/webhooks/${webhook.id}`, { key: ws.key });
  });

  it('retries a failing receiver with the same Parley-Delivery and logs every attempt', async () => {
    const webhook = await createWebhook(['human-requested']);
    const conversationId = await startConversation();
    const before = receiver.received.length;
    receiver.replies.push({ status: 500, body: 'database down' }, { status: 503 });
    await parley.call('PATCH', `/conversations/${conversationId}`, { key: ws.key, body: { status: 'HUMAN_REQUESTED' } });

    const requests = (await receiver.waitFor(before + 3)).slice(before);
    const deliveryIds = new Set(requests.map((request) => request.headers['parley-delivery']));
    expect(deliveryIds.size).toBe(1);
    expect(new Set(requests.map((request) => request.body)).size).toBe(1);
    for (const request of requests) {
      expect(verifyParleySignature(webhook.secret, request.body, String(request.headers['parley-signature']))).toBe(true);
    }

    const [delivery] = await until(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery!.id).toBe([...deliveryIds][0]);
    expect(delivery!.attemptCount).toBe(3);
    expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 503, 200]);
    expect(delivery!.attempts[0]?.responseExcerpt).toBe('database down');
    expect(delivery!.attempts[0]?.error).toMatch(/500/);
    expect(delivery!.completedAt).not.toBeNull();
    await parley.call('DELETE', `/webhooks/${webhook.id}`, { key: ws.key });
  });

  it('lists how many deliveries an endpoint failed since its last success, for its own workspace only', async () => {
    const own = await parley.newWorkspace();
    const elsewhere = await parley.newWorkspace();
    const theirs = await createWebhook(['human-requested'], elsewhere);
    const listed = async (workspace: Workspace) => (await parley.call<ListedWebhookBody[]>('GET', '/webhooks', { key: workspace.key })).body;
    // Nothing listens on port 1: every attempt is refused and retried.
    const created = await parley.call<CreatedWebhookBody>('POST', '/webhooks', {
      key: own.key,
      body: { url: 'http://127.0.0.1:1/hook', events: ['human-requested'] },
    });
    const webhook = created.body;
    expect((await listed(own)).map((endpoint) => endpoint.consecutiveFailures)).toEqual([0]);
    const conversationId = await startConversation(own);
    await parley.call('PATCH', `/conversations/${conversationId}`, { key: own.key, body: { status: 'HUMAN_REQUESTED' } });
    const [failing] = await until(
      () => listed(own),
      ([endpoint]) => (endpoint?.consecutiveFailures ?? 0) > 0,
    );
    expect(failing).toMatchObject({ id: webhook.id, consecutiveFailures: 1 });
    expect(await listed(elsewhere)).toEqual([expect.objectContaining({ id: theirs.id, consecutiveFailures: 0 })]);

    // Pointed at a receiver that answers, the retry succeeds: no longer failing.
    await parley.call('PATCH', `/webhooks/${webhook.id}`, { key: own.key, body: { url: receiver.url } });
    await until(
      () => listed(own),
      ([endpoint]) => endpoint?.consecutiveFailures === 0,
    );
  });

  it('replays a delivery as a new one with the same body', async () => {
    const webhook = await createWebhook(['conversation-resolved']);
    const conversationId = await startConversation();
    const before = receiver.received.length;
    await parley.call('PATCH', `/conversations/${conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } });
    const [original] = (await receiver.waitFor(before + 1)).slice(before);
    const [first] = await until(
      () => deliveriesOf(webhook.id),
      (list) => list[0]?.status === 'succeeded',
    );

    const replay = await parley.call<DeliveryBody>('POST', `/webhooks/${webhook.id}/deliveries/${first!.id}/replay`, { key: ws.key });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ replayOf: first!.id, eventId: first!.eventId, status: 'pending' });
    const [again] = (await receiver.waitFor(before + 2)).slice(before + 1);
    expect(again!.body).toBe(original!.body);
    expect(again!.headers['parley-delivery']).toBe(replay.body.id);
    const log = await until(
      () => deliveriesOf(webhook.id),
      (list) => list.length === 2 && list.every((d) => d.status === 'succeeded'),
    );
    expect(log.map((d) => d.id)).toEqual([replay.body.id, first!.id]);

    expect((await parley.call('POST', `/webhooks/${webhook.id}/deliveries/dlv_nope/replay`, { key: ws.key })).status).toBe(404);
    // Another workspace's delivery cannot be replayed through one's own endpoint.
    const other = await parley.newWorkspace();
    const own = await createWebhook(['message.created'], other);
    const stolen = await parley.call('POST', `/webhooks/${own.id}/deliveries/${first!.id}/replay`, { key: other.key });
    expect(stolen.status).toBe(404);
    await parley.call('DELETE', `/webhooks/${webhook.id}`, { key: ws.key });
  });

  it('emits message, conversation and datasource events to the endpoints subscribed to them', async () => {
    const webhook = await createWebhook(['conversation.created', 'message.created', 'datasource.synched']);
    const before = receiver.received.length;
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'Events' } })).body.id;
    const datasource = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: 'Returns', text: 'Returns are accepted within 30 days of delivery.' },
    });
    const conversationId = await startConversation();

    const received = await until(
      async () => receiver.received.slice(before).map((request) => eventOf(request.body)),
      (events) => events.length >= 3,
    );
    const byType = Object.fromEntries(received.map((event) => [event.type, event.data]));
    expect(byType['conversation.created']).toMatchObject({ conversationId, channel: 'website', status: 'UNRESOLVED' });
    expect(byType['message.created']).toMatchObject({ conversationId, message: { from: 'human', text: 'My order never arrived' } });
    expect(byType['datasource.synched']).toMatchObject({ datasourceId: datasource.body.id, datastoreId, name: 'Returns', chunks: 1 });
    expect(received.map((event) => event.type)).not.toContain('conversation-resolved');
    await parley.call('DELETE', `/webhooks/${webhook.id}`, { key: ws.key });
  });

  it('emits datasource.error when a datasource fails for good', async () => {
    const webhook = await createWebhook(['datasource.error']);
    const before = receiver.received.length;
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'Empty' } })).body.id;
    // A PDF header over bytes that are no PDF: recognised, then unreadable, which no retry can fix.
    const broken = { name: 'broken.pdf', bytes: new TextEncoder().encode('%PDF-1.7\n' + 'not really a pdf '.repeat(50)) };
    const blank = await uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file: broken, fileName: 'Blank' });
    expect(blank.status).toBe(200);
    const [request] = (await receiver.waitFor(before + 1)).slice(before);
    const event = eventOf<'datasource.error'>(request!.body);
    expect(event).toMatchObject({ type: 'datasource.error', data: { datasourceId: blank.body.id, datastoreId, name: 'Blank' } });
    expect(event.data.error.length).toBeGreaterThan(0);
    await parley.call('DELETE', `/webhooks/${webhook.id}`, { key: ws.key });
  });

  it('hands each outbox event to each subscription exactly once, however many dispatchers drain it', async () => {
    const other = await parley.newWorkspace();
    const endpoints = await Promise.all([createWebhook(['human-requested'], other), createWebhook(['human-requested'], other)]);
    const conversationId = await startConversation(other);
    // Stand-alone dispatchers racing the workers' own; none of them wakes a runner.
    const dispatchers = [1, 2, 3].map(
      () =>
        new EventDispatcher(parley.core.store, {
          mailEnabled: false,
          maxAttempts: 3,
          pollMs: 1000,
          batchSize: 100,
          retentionMs: 60_000,
          onQueued: () => undefined,
          onError: () => undefined,
        }),
    );
    await parley.call('PATCH', `/conversations/${conversationId}`, { key: other.key, body: { status: 'HUMAN_REQUESTED' } });
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.drain()));
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.drain()));

    for (const endpoint of endpoints) {
      const list = await until(
        async () => (await parley.call<DeliveryBody[]>('GET', `/webhooks/${endpoint.id}/deliveries`, { key: other.key })).body,
        (deliveries) => deliveries.length > 0 && deliveries.every((d) => d.status === 'succeeded'),
      );
      expect(list).toHaveLength(1);
      expect(list[0]?.attemptCount).toBe(1);
    }
    const events = await parley.core.store.outbox.list({ workspaceId: other.id });
    const humanRequested = events.filter((event) => event.type === 'human-requested');
    expect(humanRequested).toHaveLength(1);
    expect(humanRequested[0]!.dispatchedAt).not.toBeNull();

    // Dispatched events leave the outbox after the retention; pending ones and the delivery log stay.
    const pending = (await parley.core.store.outbox.list({ pending: true })).map((event) => event.id);
    await dispatchers[0]!.prune(Date.now() + 120_000);
    const remaining = await parley.core.store.outbox.list({ workspaceId: other.id });
    expect(remaining.filter((event) => event.dispatchedAt !== null && !pending.includes(event.id))).toEqual([]);
    expect((await parley.call<DeliveryBody[]>('GET', `/webhooks/${endpoints[0]!.id}/deliveries`, { key: other.key })).body).toHaveLength(1);
  });

  it('gives a slow receiver a bounded time without holding up the API', async () => {
    const slow = await startTestParley(kind, {
      workers: true,
      env: { ...FAST_RETRIES, PARLEY_WEBHOOK_TIMEOUT_SECONDS: '0.5', PARLEY_DELIVERY_MAX_ATTEMPTS: '1' },
    });
    try {
      const workspace = await slow.newWorkspace();
      const webhook = (
        await slow.call<CreatedWebhookBody>('POST', '/webhooks', { key: workspace.key, body: { url: receiver.url, events: ['message.created'] } })
      ).body;
      receiver.replies.push({ hang: true });
      const before = receiver.received.length;
      const conversations = slow.core.services.conversations;
      const { conversation } = await conversations.intake.start(workspace.id, { agentId: null, channel: 'api' });
      await conversations.messages.add(workspace.id, conversation.id, { from: 'human', text: 'hello?' });
      await receiver.waitFor(before + 1);

      const started = Date.now();
      expect((await slow.call('GET', '/webhooks', { key: workspace.key })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(400);

      const [delivery] = await until(
        async () => (await slow.call<DeliveryBody[]>('GET', `/webhooks/${webhook.id}/deliveries`, { key: workspace.key })).body,
        (list) => list[0]?.status === 'failed',
      );
      expect(delivery!.attempts).toHaveLength(1);
      expect(delivery!.attempts[0]?.statusCode).toBeNull();
      expect(delivery!.attempts[0]?.error).toMatch(/in time/);
      expect(delivery!.lastError).toMatch(/in time/);
    } finally {
      await slow.close();
    }
  });

  it('loses nothing when Parley restarts between attempts', async () => {
    const scratch = await createScratchStore(kind);
    try {
      let first = await startTestParley(kind, {
        scratch,
        workers: true,
        env: { PARLEY_JOB_RETRY_BASE_SECONDS: '1.5', PARLEY_JOB_RETRY_MAX_SECONDS: '2' },
      });
      const workspace = await first.newWorkspace();
      const webhook = (
        await first.call<CreatedWebhookBody>('POST', '/webhooks', { key: workspace.key, body: { url: receiver.url, events: ['human-requested'] } })
      ).body;
      const conversations = first.core.services.conversations;
      const { conversation } = await conversations.intake.start(workspace.id, { agentId: null, channel: 'api' });
      await conversations.messages.add(workspace.id, conversation.id, { from: 'human', text: 'Can a person help me?' });
      receiver.replies.push({ status: 502 });
      const before = receiver.received.length;
      await first.call('PATCH', `/conversations/${conversation.id}`, { key: workspace.key, body: { status: 'HUMAN_REQUESTED' } });
      await receiver.waitFor(before + 1);
      await until(
        async () => (await first.call<DeliveryBody[]>('GET', `/webhooks/${webhook.id}/deliveries`, { key: workspace.key })).body,
        (list) => list[0]?.attemptCount === 1 && list[0]?.nextAttemptAt !== null,
      );
      await first.close();

      first = await startTestParley(kind, { scratch, workers: true });
      const requests = (await receiver.waitFor(before + 2)).slice(before);
      expect(requests[1]!.headers['parley-delivery']).toBe(requests[0]!.headers['parley-delivery']);
      const [delivery] = await until(
        async () => (await first.call<DeliveryBody[]>('GET', `/webhooks/${webhook.id}/deliveries`, { key: workspace.key })).body,
        (list) => list[0]?.status === 'succeeded',
      );
      expect(delivery!.attempts.map((attempt) => attempt.statusCode)).toEqual([502, 200]);
      await first.close();
      expect(receiver.received.length).toBe(before + 2);
    } finally {
      await scratch.drop();
    }
  });
});
