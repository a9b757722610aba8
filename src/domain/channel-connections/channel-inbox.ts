import {
  UnverifiedDeliveryError,
  type ChannelIdentity,
  type DeliveryReceipt,
  type InboundChannelMessage,
  type InboundDelivery,
  type ReceivedDelivery,
} from '../../channels/connector.js';
import type { ConnectableChannel } from '../../contract/channel-connections.js';
import { notFound, unauthorized } from '../../errors.js';
import type { ChannelConnectionRecord, ContactFields, Store } from '../../store/store.js';
import { threadConversationId } from '../conversations/conversation-intake.js';
import type { ConversationUseCases } from '../conversations/conversation-use-cases.js';
import { now } from '../ids.js';
import type { Signals } from '../signals.js';
import { widgetSettingsOf } from '../widget-settings.js';
import type { ChannelConnectionService } from './channel-connections.js';
import { answerJob } from './channel-jobs.js';

/** How far a sent message got, in the order the vendor reports it. */
const RECEIPT_ORDER: readonly string[] = ['pending', 'sent', 'delivered', 'read'];

/** What the contact is made of, on the first message of a thread (a vendor identity without an e-mail makes a new contact each time). */
const contactOf = (from: ChannelIdentity): ContactFields => ({
  firstName: from.firstName ?? from.displayName,
  lastName: from.lastName,
  email: from.email,
  phoneNumber: from.phoneNumber,
});

/** What the inbox shows of the writer and the thread, kept in the conversation's metadata under `channel`. */
const channelMetadata = (message: InboundChannelMessage): Record<string, unknown> => ({
  channel: {
    externalId: message.from.externalId,
    ...(message.from.username === undefined ? {} : { username: message.from.username }),
    ...(message.from.displayName === undefined ? {} : { displayName: message.from.displayName }),
    ...message.context,
  },
});

/**
 * Messages arriving through a connection, verified by its connector, handed to the same intake as the
 * widget's: the thread finds or starts its conversation, the message is stored once however often the
 * vendor delivers it, and the agent's answer is a job, so the vendor's request is answered at once.
 */
export class ChannelInbox {
  constructor(
    private readonly store: Store,
    private readonly conversations: ConversationUseCases,
    private readonly connections: ChannelConnectionService,
    private readonly signals: Signals,
    private readonly options: { answerMaxAttempts: number },
  ) {}

  /**
   * A vendor's webhook delivery for connection `connectionId` (the URL names it, nothing else): verified by
   * the connection's own secret before anything is read, so one workspace's address cannot reach another's.
   */
  async deliver(connectionId: string, delivery: InboundDelivery): Promise<ReceivedDelivery['reply']> {
    const record = await this.enabledConnection(connectionId);
    const connector = this.connections.connectorOf(record);
    if (connector.receive === undefined) throw notFound('Channel connection', connectionId);
    const connection = this.connections.open(record);
    let received: ReceivedDelivery;
    try {
      received = await connector.receive(connection, delivery);
    } catch (error) {
      throw error instanceof UnverifiedDeliveryError ? unauthorized(error.message) : error;
    }
    await this.accept(record, received.messages);
    for (const receipt of received.receipts ?? []) await this.noteReceipt(record, receipt);
    return received.reply;
  }

  /** A vendor checking the connection's address before it delivers (WhatsApp's verification request): the body to answer. */
  async handshake(connectionId: string, query: Readonly<Record<string, string>>): Promise<string> {
    const record = await this.enabledConnection(connectionId);
    const connector = this.connections.connectorOf(record);
    if (connector.handshake === undefined) throw notFound('Channel connection', connectionId);
    try {
      return connector.handshake(this.connections.open(record), query);
    } catch (error) {
      throw error instanceof UnverifiedDeliveryError ? unauthorized(error.message) : error;
    }
  }

  private async enabledConnection(connectionId: string): Promise<ChannelConnectionRecord> {
    const record = await this.store.channelConnections.findAnywhere(connectionId);
    if (record === undefined || !record.enabled) throw notFound('Channel connection', connectionId);
    return record;
  }

  /**
   * What the vendor later said of a message we sent: recorded on it, never going back (a late "delivered"
   * after "read" changes nothing; a failure after delivery is news).
   */
  private async noteReceipt(record: ChannelConnectionRecord, receipt: DeliveryReceipt): Promise<void> {
    const conversationId = threadConversationId(record.agentId, record.channel, receipt.channelExternalId);
    const message = await this.store.messages.findByChannelMessageId(record.workspaceId, conversationId, receipt.channelMessageId);
    if (message === undefined) return;
    const before = message.delivery?.state;
    if (receipt.state !== 'failed' && before !== undefined && RECEIPT_ORDER.indexOf(before) >= RECEIPT_ORDER.indexOf(receipt.state)) return;
    await this.store.messages.recordDelivery(record.workspaceId, message.id, { state: receipt.state, error: receipt.error ?? null });
    if (receipt.state === 'failed') {
      await this.store.channelConnections.record(record.workspaceId, record.id, {
        error: receipt.error ?? 'The vendor could not deliver a message',
        at: now(),
      });
    }
  }

  /** Stores each message in its conversation, in the order given; answers what the agent should. */
  async accept(record: ChannelConnectionRecord, messages: readonly InboundChannelMessage[]): Promise<void> {
    for (const message of messages) await this.acceptOne(record, message);
  }

  private async acceptOne(record: ChannelConnectionRecord, inbound: InboundChannelMessage): Promise<void> {
    const { workspaceId, agentId, channel } = record;
    const conversationId =
      (await this.hintedConversation(record, inbound.conversationHint)) ??
      (await this.repliedConversation(record, inbound.repliedMessageHint)) ??
      threadConversationId(agentId, channel, inbound.channelExternalId);
    const existing = await this.store.conversations.find(workspaceId, conversationId);
    const leftToPeople = channel === 'mail' && record.settings.aiReplies !== true;
    const received = await this.conversations.intake.receive(workspaceId, {
      agentId,
      channel: channel as ConnectableChannel,
      conversationId,
      channelExternalId: existing?.channelExternalId ?? inbound.channelExternalId,
      text: inbound.text,
      channelMessageId: inbound.channelMessageId,
      attachments: inbound.attachments,
      ...(inbound.droppedAttachments === undefined ? {} : { droppedAttachments: inbound.droppedAttachments }),
      ...(existing === undefined
        ? {
            contact: contactOf(inbound.from),
            metadata: channelMetadata(inbound),
            ...(inbound.context.subject ? { title: inbound.context.subject } : {}),
            ...(leftToPeople ? { isAiEnabled: false } : {}),
          }
        : {}),
    });
    if (!received.isNew) return;
    await this.store.channelConnections.record(workspaceId, record.id, { inboundAt: now() });
    if (inbound.command === 'start') {
      if (received.created) await this.greet(record, received.conversation.id);
      return;
    }
    if (!received.agentAnswers) return;
    await this.store.jobs.enqueue(
      answerJob(
        workspaceId,
        { connectionId: record.id, conversationId: received.conversation.id, messageId: received.message.id },
        this.options.answerMaxAttempts,
      ),
    );
    this.signals.jobEnqueued.notify();
  }

  /** A conversation the sender named (an e-mail's reply address), if it is this agent's on this channel. */
  private async hintedConversation(record: ChannelConnectionRecord, hint: string | undefined): Promise<string | undefined> {
    if (hint === undefined) return undefined;
    const conversation = await this.store.conversations.find(record.workspaceId, hint);
    return conversation?.agentId === record.agentId && conversation.channel === record.channel ? conversation.id : undefined;
  }

  /** The conversation of the message the sender answered (an e-mail naming only our mail in In-Reply-To), if it is this agent's on this channel. */
  private async repliedConversation(record: ChannelConnectionRecord, messageId: string | undefined): Promise<string | undefined> {
    if (messageId === undefined) return undefined;
    const message = await this.store.messages.find(record.workspaceId, messageId);
    return message && this.hintedConversation(record, message.conversationId);
  }

  /** Someone opened the chat (Telegram's /start): the agent says hello as its widget would. */
  private async greet(record: ChannelConnectionRecord, conversationId: string): Promise<void> {
    const agent = await this.store.agents.find(record.workspaceId, record.agentId);
    if (agent === undefined) return;
    const { greeting } = widgetSettingsOf(agent.widget);
    await this.conversations.messages.add(record.workspaceId, conversationId, { from: 'agent', text: greeting });
  }
}
