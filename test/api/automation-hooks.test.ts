import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { waitForDatasource } from '../support/datasources.js';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver.js';
import type { AgentBody, DatasourceBody, DatastoreBody, DeliveryBody, ErrorBody, ListedWebhookBody } from '../support/bodies.js';
import type { CreatedHookBody, HookBody } from '../../src/contract/webhooks.js';
import type { EventEnvelope } from '../../src/contract/events.js';

/**
 * REST hooks as Zapier drives them (its documented contract: subscribe with `target_url` and `event`, keep the
 * answer's `id`, `DELETE` it when the Zap is turned off, and a 410 from the target means the Zap is gone), and a
 * Zap whose trigger fires and whose action asks an agent with the hosted service's Zapier app's "Query Agent"
 * request, as that app sends it.
 */

const HOURS = 'The bakery opens at seven in the morning and closes at six in the evening, Monday to Saturday.';

/** The receiver's check, as the README documents it for webhooks. */
function signedWith(secret: string, { headers, body }: ReceivedWebhook): boolean {
  const header = String(headers['parley-signature']);
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1));
}

const envelope = (received: ReceivedWebhook) => JSON.parse(received.body) as EventEnvelope;

describe.each(STORE_KINDS)('REST hooks for Zapier and other automation, on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;
  const receivers: WebhookReceiver[] = [];

  /** A target of its own per subscription: what arrives there was delivered to that subscription alone. */
  const target = async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    return receiver;
  };

  /** Zapier's subscribe: the app's API key as a bearer, a JSON body. */
  const subscribe = (body: Record<string, string>, key = ws.key) =>
    fetch(`${parley.url}/api/hooks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });

  /** Zapier's unsubscribe: `DELETE` of the id its subscribe answered, no body. */
  const unsubscribe = (id: string, key = ws.key) =>
    fetch(`${parley.url}/api/hooks/${id}`, { method: 'DELETE', headers: { Accept: 'application/json', Authorization: `Bearer ${key}` } });

  const subscribed = async (body: Record<string, string>): Promise<CreatedHookBody> => {
    const response = await subscribe(body);
    expect(response.status).toBe(200);
    return (await response.json()) as CreatedHookBody;
  };

  const listed = async () => (await parley.call<ListedWebhookBody[]>('GET', '/webhooks', { key: ws.key })).body;

  /** A message written in a conversation of the workspace, with a plain webhook hearing it: once it has, every delivery of that event was planned. */
  const messageHeardBy = async (control: WebhookReceiver, text: string) => {
    const before = control.received.length;
    const conversations = parley.core.services.conversations;
    const { conversation } = await conversations.intake.start(ws.id, { agentId, channel: 'website' });
    await conversations.messages.add(ws.id, conversation.id, { from: 'human', text });
    await until(
      () => control.received.slice(before).map(envelope),
      (events) => events.some((event) => event.type === 'message.created' && event.data.message.text === text),
    );
  };

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace('Bakery');
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'bakery' } })).body.id;
    const hours = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: 'Opening hours', text: HOURS },
    });
    expect((await waitForDatasource(parley, ws.key, hours.body.id)).status).toBe('synched');
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Baker', tools: [{ type: 'datastore', datastoreId }] } }))
      .body.id;
  });
  afterAll(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  it('a Zap’s trigger fires on a new message, its action asks the agent; resolving fires; after unsubscribing nothing more arrives', async () => {
    const onConversation = await target();
    const onMessage = await target();
    const onResolved = await target();
    const conversationHook = await subscribed({ target_url: onConversation.url, event: 'new_conversation' });
    const messageHook = await subscribed({ target_url: onMessage.url, event: 'new_message' });
    // The Platform CLI's examples name the URL `url`; event types are accepted as well as trigger names.
    const resolvedHook = await subscribed({ url: onResolved.url, event: 'conversation-resolved' });
    expect(messageHook).toMatchObject({ event: 'message.created', target_url: onMessage.url });
    expect(messageHook.secret).toMatch(/^whsec_/);
    expect([conversationHook.event, resolvedHook.event]).toEqual(['conversation.created', 'conversation-resolved']);
    const mine = (await listed()).filter((webhook) => [conversationHook.id, messageHook.id, resolvedHook.id].includes(webhook.id));
    expect(mine.map((webhook) => webhook.source)).toEqual(['automation', 'automation', 'automation']);

    // A visitor writes; the agent answers.
    const asked = await parley.call<{ conversationId: string; answer: string }>('POST', `/agents/${agentId}/query`, {
      key: ws.key,
      body: { query: 'When do you open in the morning?' },
    });
    expect(asked.status).toBe(200);
    const { conversationId } = asked.body;

    const [created] = await onConversation.waitFor(1);
    expect(signedWith(conversationHook.secret, created!)).toBe(true);
    expect(envelope(created!)).toMatchObject({ type: 'conversation.created', workspaceId: ws.id, data: { conversationId, agentId, channel: 'api' } });
    const messages = await onMessage.waitFor(2);
    for (const received of messages) {
      expect(signedWith(messageHook.secret, received)).toBe(true);
      expect(received.headers['parley-event']).toBe('message.created');
    }
    expect(messages.map(envelope).map((event) => event.type === 'message.created' && [event.data.conversationId, event.data.message.from])).toEqual([
      [conversationId, 'human'],
      [conversationId, 'agent'],
    ]);
    const question = envelope(messages[0]!);
    if (question.type !== 'message.created') throw new Error('not a message');
    expect(question.data.message.text).toBe('When do you open in the morning?');

    // The Zap's action: the hosted app's "Query Agent" (creates/query_agent.js), its templated body as rendered.
    const action = await fetch(`${parley.url}/api/agents/${agentId}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${ws.key}` },
      body: JSON.stringify({ query: question.data.message.text, truncateQuery: '' }),
    });
    expect(action.status).toBe(200);
    expect(((await action.json()) as { answer: string }).answer).toContain('seven');

    // Zapier's performList while a Zap is set up: the latest events, in the very shape a delivery has; never a private note.
    const writer = await parley.newMember(ws.id, 'member');
    const note = await parley.call('POST', `/conversations/${conversationId}/notes`, { key: writer.accessToken, body: { text: 'Asks every week' } });
    expect(note.status).toBe(201);
    const delivered = (await onMessage.waitFor(4)).map(envelope);
    const samples = await fetch(`${parley.url}/api/hooks/samples?event=new_message`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${ws.key}` },
    });
    expect(samples.status).toBe(200);
    const sampled = (await samples.json()) as EventEnvelope[];
    expect(sampled).toHaveLength(3);
    for (const sample of sampled) expect(delivered).toContainEqual(sample);
    expect(sampled.map((sample) => sample.createdAt)).toEqual(
      sampled
        .map((sample) => sample.createdAt)
        .sort()
        .reverse(),
    );
    expect(sampled[0]!.id).toBe(delivered.at(-1)!.id);

    expect((await parley.call('PATCH', `/conversations/${conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } })).status).toBe(200);
    const [resolved] = await onResolved.waitFor(1);
    expect(signedWith(resolvedHook.secret, resolved!)).toBe(true);
    expect(envelope(resolved!)).toMatchObject({
      type: 'conversation-resolved',
      data: { conversationId, status: 'RESOLVED', agent: { id: agentId } },
    });

    // Zapier turns the Zap off.
    const off = await unsubscribe(messageHook.id);
    expect(off.status).toBe(200);
    expect((await off.json()) as HookBody).toMatchObject({ id: messageHook.id, event: 'message.created', target_url: onMessage.url });
    expect((await listed()).some((webhook) => webhook.id === messageHook.id)).toBe(false);
    const heard = onMessage.received.length;
    const control = await target();
    const controlHook = await subscribed({ target_url: control.url, event: 'new_message' });
    await messageHeardBy(control, 'Is the shop open on Sunday?');
    expect(onMessage.received.length).toBe(heard);
    // Unsubscribing twice: the second finds nothing.
    expect((await unsubscribe(messageHook.id)).status).toBe(404);
    for (const { id } of [conversationHook, resolvedHook, controlHook]) expect((await unsubscribe(id)).status).toBe(200);
  });

  it('a target answering 410 Gone is unsubscribed at once, with no retries', async () => {
    const gone = await target();
    gone.replies.push({ status: 410, body: 'Gone' });
    const hook = await subscribed({ target_url: gone.url, event: 'new_message' });
    const control = await target();
    const controlHook = await subscribed({ target_url: control.url, event: 'new_message' });
    await messageHeardBy(control, 'Do you bake gluten-free bread?');
    await gone.waitFor(1);
    await until(listed, (webhooks) => !webhooks.some((webhook) => webhook.id === hook.id));
    expect((await unsubscribe(hook.id)).status).toBe(404);
    await messageHeardBy(control, 'And on Saturdays?');
    expect(gone.received).toHaveLength(1);
    expect((await unsubscribe(controlHook.id)).status).toBe(200);
  });

  it('a member’s own webhook answered 410 is a failed delivery like any other: it stays', async () => {
    const gone = await target();
    gone.replies.push({ status: 410, body: 'Gone' });
    const webhook = await parley.call<{ id: string }>('POST', '/webhooks', { key: ws.key, body: { url: gone.url, events: ['message.created'] } });
    await messageHeardBy(gone, 'Do you sell birthday candles?');
    const [delivery] = await until(
      async () => (await parley.call<DeliveryBody[]>('GET', `/webhooks/${webhook.body.id}/deliveries`, { key: ws.key })).body,
      (deliveries) => deliveries[0]?.lastStatusCode === 410,
    );
    expect(delivery?.status).not.toBe('succeeded');
    expect((await listed()).some((row) => row.id === webhook.body.id)).toBe(true);
    await parley.call('DELETE', `/webhooks/${webhook.body.id}`, { key: ws.key });
  });

  it('refuses a subscription without a target or with an unknown event, and unsubscribing what is not a subscription', async () => {
    const missing = await subscribe({ event: 'new_message' });
    expect(missing.status).toBe(400);
    const missingBody = (await missing.json()) as ErrorBody;
    expect(missingBody.error).toBe('INVALID_REQUEST');
    expect(missingBody.details?.map((detail) => detail.field)).toEqual(['body.target_url']);
    const unknown = await subscribe({ target_url: 'http://127.0.0.1:9/hook', event: 'new_invoice' });
    expect([unknown.status, ((await unknown.json()) as ErrorBody).error]).toEqual([400, 'INVALID_REQUEST']);
    const notAUrl = await subscribe({ target_url: 'hooks.zapier.com', event: 'new_message' });
    expect(notAUrl.status).toBe(400);

    const webhook = await parley.call<{ id: string }>('POST', '/webhooks', {
      key: ws.key,
      body: { url: 'http://127.0.0.1:9/crm', events: ['message.created'] },
    });
    expect((await listed()).find((row) => row.id === webhook.body.id)?.source).toBe('webhooks');
    const notAHook = await unsubscribe(webhook.body.id);
    expect([notAHook.status, ((await notAHook.json()) as ErrorBody).error]).toEqual([404, 'NOT_FOUND']);
    expect((await listed()).some((row) => row.id === webhook.body.id)).toBe(true);
    expect((await unsubscribe('no-such-hook')).status).toBe(404);
    await parley.call('DELETE', `/webhooks/${webhook.body.id}`, { key: ws.key });
  });

  it('keeps workspaces apart: another workspace neither unsubscribes A’s hook nor hears A’s events; a member’s key may not subscribe', async () => {
    const other = await parley.newWorkspace();
    const mineTarget = await target();
    const theirsTarget = await target();
    const hook = await subscribed({ target_url: mineTarget.url, event: 'new_message' });
    const theirs = await subscribe({ target_url: theirsTarget.url, event: 'new_message' }, other.key);
    expect(theirs.status).toBe(200);
    const theirHook = (await theirs.json()) as CreatedHookBody;

    const foreign = await unsubscribe(hook.id, other.key);
    expect([foreign.status, ((await foreign.json()) as ErrorBody).error]).toEqual([403, 'FORBIDDEN']);
    await messageHeardBy(mineTarget, 'Can I order a birthday cake?');
    expect(theirsTarget.received).toEqual([]);

    const member = await parley.newMember(ws.id, 'member');
    const memberKey = (await parley.call<{ key: string }>('POST', '/keys', { key: member.accessToken, body: { name: 'zapier' } })).body.key;
    const refused = await subscribe({ target_url: mineTarget.url, event: 'new_message' }, memberKey);
    expect([refused.status, ((await refused.json()) as ErrorBody).error]).toEqual([403, 'FORBIDDEN']);
    expect((await unsubscribe(hook.id, memberKey)).status).toBe(403);

    expect((await unsubscribe(hook.id)).status).toBe(200);
    expect((await unsubscribe(theirHook.id, other.key)).status).toBe(200);
  });
});
