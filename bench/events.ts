import type { StoreKind } from '../test/support/stores.js';
import { WebhookReceiver } from '../test/support/webhook-receiver.js';
import { figure, ratio, type Figure } from './figures.js';
import { expectOk, startInProcessParley } from './in-process-parley.js';
import { summarizeLatencies, timed, type LatencySummary } from './latency.js';

export interface EventsResult {
  store: StoreKind;
  events: Figure;
  /** Baseline: one POST of the same body straight to the loopback receiver. */
  directPost: LatencySummary;
  /** PATCH /conversations/{id} changing only metadata: no event recorded. */
  patchWithoutEvent: LatencySummary;
  /** PATCH /conversations/{id} to RESOLVED: the event is written in the same transaction. */
  patchWithEvent: LatencySummary;
  /** From the PATCH being sent to the signed delivery arriving at the receiver, one event at a time. */
  eventToReceipt: LatencySummary;
  eventToReceiptOverDirect: Figure;
  /** A burst of status changes, 8 at a time: deliveries received per second until the last one. */
  burstDeliveriesPerSecond: Figure;
}

/**
 * What a webhook costs: the API time of recording an event, the time until a signed delivery reaches a
 * receiver on loopback (against a direct POST in the same run), and delivery throughput in a burst.
 */
export async function runEventsBench(options: { store: StoreKind; events: number }): Promise<EventsResult> {
  const receiver = await WebhookReceiver.start();
  const parley = await startInProcessParley({ store: options.store, embedderThreads: 1 });
  try {
    expectOk('POST /webhooks', await parley.call('POST', '/webhooks', { url: receiver.url, events: ['conversation-resolved'] }));
    const workspaceId = (await parley.core.services.workspaces.findOrCreate('bench')).workspace.id;
    const conversations = parley.core.services.conversations;
    const newConversation = async (index: number) => {
      const { conversation } = await conversations.intake.start(workspaceId, { agentId: null, channel: 'api' });
      await conversations.messages.add(workspaceId, conversation.id, { from: 'human', text: `Question ${index} about an order` });
      await conversations.messages.add(workspaceId, conversation.id, { from: 'agent', text: `Answer ${index}: it ships tomorrow.` });
      return conversation.id;
    };
    const arrivalOf = async (conversationId: string): Promise<number> => {
      for (;;) {
        const found = receiver.received.find((request) => request.body.includes(conversationId));
        if (found) return found.at;
        await receiver.waitFor(receiver.received.length + 1, 30_000);
      }
    };

    const ids = await Promise.all(Array.from({ length: options.events }, (_, index) => newConversation(index)));
    const patchWithoutEvent: number[] = [];
    const patchWithEvent: number[] = [];
    const eventToReceipt: number[] = [];
    for (const id of ids) {
      patchWithoutEvent.push((await timed(() => parley.call('PATCH', `/conversations/${id}`, { metadata: { touched: true } }))).millis);
      const sentAt = Date.now();
      const patched = await timed(() => parley.call('PATCH', `/conversations/${id}`, { status: 'RESOLVED' }));
      patchWithEvent.push(patched.millis);
      eventToReceipt.push((await arrivalOf(id)) - sentAt);
    }
    const sample = receiver.received.at(-1)!.body;
    const directPost: number[] = [];
    for (let index = 0; index < options.events; index += 1) {
      directPost.push(
        (
          await timed(() =>
            fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sample }).then((r) => r.text()),
          )
        ).millis,
      );
    }

    const burst = await Promise.all(Array.from({ length: options.events }, (_, index) => newConversation(index)));
    const before = receiver.received.length;
    const burstStart = Date.now();
    for (let start = 0; start < burst.length; start += 8) {
      await Promise.all(burst.slice(start, start + 8).map((id) => parley.call('PATCH', `/conversations/${id}`, { status: 'RESOLVED' })));
    }
    await receiver.waitFor(before + burst.length, 120_000);
    const burstSeconds = (receiver.received.at(-1)!.at - burstStart) / 1000;

    const receipt = summarizeLatencies(eventToReceipt);
    const direct = summarizeLatencies(directPost);
    return {
      store: options.store,
      events: figure(options.events, 'count'),
      directPost: direct,
      patchWithoutEvent: summarizeLatencies(patchWithoutEvent),
      patchWithEvent: summarizeLatencies(patchWithEvent),
      eventToReceipt: receipt,
      eventToReceiptOverDirect: ratio(receipt.p50.value, direct.p50.value),
      burstDeliveriesPerSecond: figure(burst.length / burstSeconds, 'deliveries/s'),
    };
  } finally {
    await parley.close();
    await receiver.close();
  }
}
