import { createHash } from 'node:crypto';
import { conversationCreatedEvent } from '../../events/conversation-events.js';
import type { ContactFields, ContactRecord, ConversationRecord, MessageRecord, NewConversation, Store, VisitorContext } from '../../store/store.js';
import { normalizeChannel, type ChannelInput } from '../channels.js';
import { agentAnswersIn } from '../handoff.js';
import { newId, now } from '../ids.js';
import { findInWorkspace } from '../scoped.js';
import type { ConversationMessages } from './conversation-messages.js';
import type { IncomingAttachment, MessageAttachments } from './message-attachments.js';

/** Where a conversation starts from: which one, on which channel, and who is writing. */
export interface ConversationStart {
  /** Absent: a new conversation; unknown: created with this id (clients make ids up). */
  conversationId?: string;
  /** Absent: a new visitor; unknown: created with this id. */
  visitorId?: string;
  agentId: string | null;
  channel: ChannelInput;
  /** The channel's own id of the thread (a chat, an e-mail thread, a page). */
  channelExternalId?: string;
  /** Who the visitor says they are; merged into the workspace's contact with the same e-mail. */
  contact?: ContactFields;
  /** A signed-in member trying the agent in the dashboard's playground (set when it is created only). */
  playground?: boolean;
  /** Set when it is created only: its title (an e-mail's subject), else the first message's words. */
  title?: string;
  /** Set when it is created only: what the channel tells of the thread and its writer. */
  metadata?: Record<string, unknown>;
  /** Set when it is created only: whether the agent answers in it (default true). */
  isAiEnabled?: boolean;
  /** What the widget told of the visitor's page, already cleaned (kept when it is created only). */
  visitorContext?: VisitorContext;
}

export interface StartedConversation {
  conversation: ConversationRecord;
  visitorId: string;
  created: boolean;
}

/**
 * A visitor's message arriving from outside the workspace: from the widget or the API, or from a channel
 * (e-mail, a messenger). Without `conversationId` a channel's thread (`channelExternalId`) is one
 * conversation per agent and channel; without either, the message starts a new one.
 */
export interface InboundMessage extends ConversationStart {
  agentId: string;
  text: string;
  /** The vendor's id of this message: delivered again (a webhook retried), it is stored once. */
  channelMessageId?: string;
  /** Already read by the members: a member's own question in the playground. */
  read?: boolean;
  /** Files that came with it (an e-mail's attachments, size-capped): kept, and listed in the message. */
  attachments?: readonly IncomingAttachment[];
  /** Names of files that came with it but were too large to keep: listed in the message as dropped. */
  droppedAttachments?: readonly string[];
}

export interface ReceivedMessage extends StartedConversation {
  /** The visitor's message, as stored (the one stored before, for a message delivered again). */
  message: MessageRecord;
  /** False for a message delivered again: it was stored, announced and answered the first time. */
  isNew: boolean;
  /** Whether the agent answers it, as the conversation now stands (see {@link agentAnswersIn}). */
  agentAnswers: boolean;
}

/**
 * The conversation id of a channel's thread: the same for every message of the thread, made up by nobody.
 * Lower-case letters, digits and `_` only, so it can stand in an e-mail's reply address (`support+<id>@…`).
 */
export const threadConversationId = (agentId: string, channel: string, channelExternalId: string): string =>
  `thread_${createHash('sha256')
    .update(JSON.stringify([agentId, channel, channelExternalId]))
    .digest('hex')
    .slice(0, 32)}`;

/**
 * How conversations come in: a visitor's message finds or starts its conversation and visitor, and is stored
 * (with its events) through the one path every message takes; who the visitor is, when they say.
 */
export class ConversationIntake {
  constructor(
    private readonly store: Store,
    private readonly messages: ConversationMessages,
    private readonly attachments: MessageAttachments,
    /** Called after a change recorded an event for the workspace, so in-process workers and streams see it at once. */
    private readonly onEvent: (workspaceId: string) => void,
  ) {}

  /**
   * Stores a visitor's message in its conversation, started when new: the widget's questions and a channel's
   * messages alike. Whether the agent then answers is the result's `agentAnswers`.
   */
  async receive(workspaceId: string, inbound: InboundMessage): Promise<ReceivedMessage> {
    const channel = normalizeChannel(inbound.channel);
    const { channelExternalId } = inbound;
    const conversationId =
      inbound.conversationId ?? (channelExternalId === undefined ? undefined : threadConversationId(inbound.agentId, channel, channelExternalId));
    const agent = await findInWorkspace(this.store.agents, 'Agent', workspaceId, inbound.agentId);
    const started = await this.open(workspaceId, { ...inbound, conversationId });
    const { conversation, visitorId } = started;
    // Two deliveries at the same instant: the later one fails on the store's unique index, and its retry finds this.
    const again =
      inbound.channelMessageId === undefined
        ? undefined
        : await this.store.messages.findByChannelMessageId(workspaceId, conversation.id, inbound.channelMessageId);
    if (again !== undefined) return { ...started, message: again, isNew: false, agentAnswers: false };
    const attachments = await this.attachments.keep(workspaceId, inbound.attachments ?? [], inbound.droppedAttachments);
    const appended = await this.messages
      .add(workspaceId, conversation.id, {
        from: 'human',
        text: inbound.text,
        visitorId,
        channelMessageId: inbound.channelMessageId,
        ...(attachments.length === 0 ? {} : { attachments }),
        ...(inbound.read === undefined ? {} : { read: inbound.read }),
      })
      .catch(async (error: unknown) => {
        // Not stored (a second delivery of the same message won the race): its files go too.
        await this.attachments.discard(workspaceId, attachments);
        throw error;
      });
    return {
      conversation: appended.conversation,
      visitorId,
      created: started.created,
      message: appended.message,
      isNew: true,
      agentAnswers: agentAnswersIn(appended.conversation, agent),
    };
  }

  /**
   * The conversation and visitor a message is written in, created when absent or unknown. Ids are unique
   * per workspace: another workspace's conversation of the same id is never touched.
   */
  async start(workspaceId: string, input: ConversationStart): Promise<StartedConversation> {
    if (input.agentId !== null) await findInWorkspace(this.store.agents, 'Agent', workspaceId, input.agentId);
    return this.open(workspaceId, input);
  }

  /** {@link start} once its agent is known to be the workspace's. */
  private async open(workspaceId: string, input: ConversationStart): Promise<StartedConversation> {
    const at = now();
    const contact = await this.saveContact(workspaceId, input.contact, at);
    const visitorId = input.visitorId ?? newId();
    const visitor = await this.store.participants.ensureVisitor(workspaceId, visitorId, contact?.id ?? null, at);

    const id = input.conversationId ?? newId();
    const contactId = contact?.id ?? visitor.contactId;
    const conversation: NewConversation = {
      id,
      workspaceId,
      agentId: input.agentId,
      channel: normalizeChannel(input.channel),
      channelExternalId: input.channelExternalId ?? null,
      status: 'UNRESOLVED',
      isAiEnabled: input.isAiEnabled ?? true,
      title: input.title ?? '',
      metadata: input.metadata ?? {},
      visitorId,
      contactId,
      playground: input.playground === true,
      visitorContext: input.visitorContext ?? null,
      createdAt: at,
    };
    const ensured = await this.store.conversations.ensure(conversation, conversationCreatedEvent(conversation));
    if (ensured.created) this.onEvent(workspaceId);
    let current = ensured.conversation;
    if (contactId !== null && current.contactId !== contactId) {
      current = (await this.store.conversations.update(workspaceId, id, { contactId }, {}, at))?.after ?? current;
    }
    return { conversation: current, visitorId, created: ensured.created };
  }

  /** Who the conversation's visitor says they are (a lead form): its contact, created or merged by e-mail. */
  async identify(workspaceId: string, id: string, visitorId: string, fields: ContactFields): Promise<ContactRecord | undefined> {
    const at = now();
    const contact = await this.saveContact(workspaceId, fields, at);
    if (contact === undefined) return undefined;
    await this.store.participants.ensureVisitor(workspaceId, visitorId, contact.id, at);
    await this.store.conversations.update(workspaceId, id, { contactId: contact.id }, {}, at);
    return contact;
  }

  private async saveContact(workspaceId: string, fields: ContactFields | undefined, at: string): Promise<ContactRecord | undefined> {
    const clean = (value: string | null | undefined) => value?.trim() || undefined;
    const contact = {
      firstName: clean(fields?.firstName),
      lastName: clean(fields?.lastName),
      email: clean(fields?.email)?.toLowerCase(),
      phoneNumber: clean(fields?.phoneNumber),
    };
    if (Object.values(contact).every((value) => value === undefined)) return undefined;
    return this.store.participants.upsertContact(workspaceId, newId(), contact, at);
  }
}
