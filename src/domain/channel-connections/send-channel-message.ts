import { ChannelError, type ChannelIdentity, type OutgoingChannelMessage } from '../../channels/connector.js';
import { updatedEventFor } from '../../events/conversation-events.js';
import type { ChannelMessageJobPayload } from '../../events/delivery-plan.js';
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JobRecord, Store } from '../../store/store.js';
import { isVisitor } from '../conversations/conversation-rules.js';
import { now } from '../ids.js';
import type { ChannelConnectionService } from './channel-connections.js';

/**
 * Sends one message of a conversation out through the conversation's channel (the agent's answer, a
 * member's reply, a notice), and records on the message whether it went out: pending while tried again
 * with backoff, sent with the vendor's id, or failed with the reason in Parley's words.
 */
export class SendChannelMessageHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly connections: ChannelConnectionService,
  ) {}

  async run(job: JobRecord, { signal }: JobContext): Promise<void> {
    const { connectionId, conversationId, messageId } = job.payload as unknown as ChannelMessageJobPayload;
    const { workspaceId } = job;
    if (workspaceId === null) return;
    const [record, conversation, message] = await Promise.all([
      this.store.channelConnections.find(workspaceId, connectionId),
      this.store.conversations.find(workspaceId, conversationId),
      this.store.messages.find(workspaceId, messageId),
    ]);
    if (message === undefined || conversation === undefined) return;
    if (record === undefined || !record.enabled) throw new ChannelError('The channel connection was removed or disabled', false);
    if (conversation.channelExternalId === null) throw new ChannelError('The conversation has no thread on the channel', false);
    const history = await this.store.messages.listByConversations(workspaceId, [conversationId]);
    const outgoing: OutgoingChannelMessage = {
      id: message.id,
      conversationId,
      automatic: message.memberId === null,
      channelExternalId: conversation.channelExternalId,
      text: message.text,
      title: conversation.title,
      thread: history.flatMap((earlier) => (earlier.id !== message.id && earlier.channelMessageId !== null ? [earlier.channelMessageId] : [])),
      to: await this.recipientOf(workspaceId, conversation.contactId),
      lastInboundAt: history.findLast(isVisitor)?.createdAt ?? null,
      notice: message.notice?.kind ?? null,
    };
    const sent = await this.connections
      .connectorOf(record)
      .send(this.connections.open(record), outgoing, signal)
      .catch((error: unknown) => {
        // The reason is shown in the inbox: the vendor's own words may hold an address or a token.
        throw error instanceof ChannelError ? error : new ChannelError('Sending failed; Parley tries again', true, { cause: error });
      });
    await this.store.messages.recordDelivery(workspaceId, messageId, { state: 'sent', error: null }, sent.channelMessageId);
    await this.store.channelConnections.record(workspaceId, connectionId, { outboundAt: now() });
    // The vendor's people hold the conversation now: the agent stops answering, with no notice of its own to send.
    if (sent.handedOver === true && conversation.isAiEnabled) {
      await this.store.conversations.update(workspaceId, conversationId, { isAiEnabled: false }, { onUpdated: updatedEventFor }, now());
    }
  }

  async retrying(job: JobRecord, reason: string): Promise<void> {
    await this.note(job, 'pending', reason);
  }

  async failed(job: JobRecord, reason: string): Promise<void> {
    await this.note(job, 'failed', reason);
  }

  private async note(job: JobRecord, state: 'pending' | 'failed', reason: string): Promise<void> {
    const { connectionId, messageId } = job.payload as unknown as ChannelMessageJobPayload;
    if (job.workspaceId === null) return;
    await this.store.messages.recordDelivery(job.workspaceId, messageId, { state, error: reason });
    await this.store.channelConnections.record(job.workspaceId, connectionId, { error: reason, at: now() });
  }

  private async recipientOf(workspaceId: string, contactId: string | null): Promise<ChannelIdentity | null> {
    if (contactId === null) return null;
    const [contact] = await this.store.participants.contacts(workspaceId, [contactId]);
    if (contact === undefined) return null;
    const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    return {
      externalId: contact.email ?? contact.id,
      ...(name === '' ? {} : { displayName: name }),
      ...(contact.email === null ? {} : { email: contact.email }),
      ...(contact.phoneNumber === null ? {} : { phoneNumber: contact.phoneNumber }),
    };
  }
}
