import type {
  AppendedMessage,
  ContactFields,
  ContactRecord,
  ConversationRecord,
  ConversationStatus,
  MessageEval,
  MessageFrom,
  MessageRecord,
  MessageUsage,
  NewConversation,
  NewMessage,
  Store,
} from '../store/store.js';
import { normalizeChannel, type ChannelInput } from './channels.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import { conversationFilter, LIST_LIMIT, type ConversationListPage, type ConversationListQuery } from './conversation-list.js';
import type { ConversationDetails, ConversationView, ListedMessages } from './conversation-view.js';
import {
  conversationCreatedEvent,
  conversationStatusEvent,
  EVENT_MESSAGE_COUNT,
  messageCreatedEvent,
} from '../events/conversation-events.js';
import { renderTranscriptHtml, toTranscript, type ConversationTranscript } from './conversation-export.js';
import { forbidden, notFound } from '../errors.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';

export const CONVERSATION_STATUSES = ['UNRESOLVED', 'RESOLVED', 'HUMAN_REQUESTED'] as const satisfies readonly ConversationStatus[];

/** The system message left in a conversation when a person takes it over from the agent. */
export const AI_SWITCHED_OFF_NOTICE = 'The agent was switched off for this conversation; a person will answer.';

/** Longest title taken from a first message. */
const TITLE_LENGTH = 100;

export interface ConversationPatch {
  isAiEnabled?: boolean;
  status?: ConversationStatus;
  /** Merged into the stored metadata. */
  metadata?: Record<string, unknown>;
}

export type ConversationExport =
  | { format: 'json'; transcript: ConversationTranscript }
  | { format: 'html'; html: string };

/** What the agent query starts from: the conversation to write in and who is writing. */
export interface EnsureConversationInput {
  /** Absent: a new conversation; unknown: created with this id (clients make ids up). */
  conversationId?: string;
  /** Absent: a new visitor; unknown: created with this id. */
  visitorId?: string;
  agentId: string | null;
  channel: ChannelInput;
  channelExternalId?: string;
  /** Who the visitor says they are; merged into the workspace's contact with the same e-mail. */
  contact?: ContactFields;
}

export interface EnsuredConversation {
  conversation: ConversationRecord;
  visitorId: string;
  created: boolean;
}

export interface NewMessageInput {
  from: MessageFrom;
  text: string;
  sources?: Record<string, unknown>[];
  attachments?: Record<string, unknown>[];
  usage?: MessageUsage | null;
  model?: string | null;
  visitorId?: string | null;
}

/** A title from the first words of a message: its first line, shortened. */
const titleFrom = (text: string): string => {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
};

const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
};

const distinct = (ids: readonly (string | null)[]): string[] => [...new Set(ids.filter((id): id is string => id !== null))];

export class ConversationService {
  constructor(
    private readonly store: Store,
    /** Called after a change recorded an event, so in-process workers hand it on at once. */
    private readonly onEvent: () => void = () => undefined,
  ) {}

  /** The whole conversation: all messages oldest first, the agent, the contact and the visitors. */
  async get(workspaceId: string, id: string): Promise<ConversationDetails> {
    const conversation = await this.find(workspaceId, id);
    const view = await this.view(workspaceId, conversation, 'all');
    const visitors = await this.store.participants.visitors(
      workspaceId,
      distinct([conversation.visitorId, ...view.messages.map((message) => message.visitorId)]),
    );
    const contacts = await this.store.participants.contacts(workspaceId, distinct(visitors.map((visitor) => visitor.contactId)));
    return {
      ...view,
      visitors: visitors.map((visitor) => ({
        visitor,
        contact: contacts.find((contact) => contact.id === visitor.contactId) ?? null,
      })),
    };
  }

  /** A conversation's messages, oldest first (the history an answer is composed from). */
  async messages(workspaceId: string, id: string): Promise<MessageRecord[]> {
    await this.find(workspaceId, id);
    return this.store.messages.listByConversations(workspaceId, [id]);
  }

  /**
   * Changes the agent switch, status and metadata. Switching the agent off leaves a system message; a
   * new status RESOLVED or HUMAN_REQUESTED writes its event to the outbox, in the same transaction.
   */
  async patch(workspaceId: string, id: string, patch: ConversationPatch): Promise<ConversationView> {
    const conversation = await this.find(workspaceId, id);
    const at = now();
    const notice: NewMessage = {
      id: newId(),
      workspaceId,
      conversationId: id,
      from: 'system',
      text: AI_SWITCHED_OFF_NOTICE,
      sources: [],
      read: true,
      attachments: [],
      usage: null,
      model: null,
      visitorId: null,
      createdAt: at,
    };
    const willSwitchOff = conversation.isAiEnabled && patch.isAiEnabled === false;
    const event =
      patch.status === undefined ? undefined : await this.statusEvent(conversation, patch.status, willSwitchOff ? notice : undefined);
    const updated = await this.store.conversations.update(
      workspaceId,
      id,
      { isAiEnabled: patch.isAiEnabled, status: patch.status, metadata: patch.metadata },
      { onAiSwitchedOff: notice, onStatusChanged: event },
      at,
    );
    if (event !== undefined && updated !== undefined && updated.before.status !== updated.after.status) this.onEvent();
    return this.view(workspaceId, updated?.after ?? (await this.find(workspaceId, id)), 'all');
  }

  /** Sets the status of every conversation of the workspace matching the filters (all without one). */
  async updateStatus(
    workspaceId: string,
    filter: { channel?: ChannelInput; agentId?: string },
    status: ConversationStatus,
  ): Promise<{ count: number; message: string }> {
    if (filter.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, filter.agentId);
    const channel = filter.channel === undefined ? undefined : normalizeChannel(filter.channel);
    const count = await this.store.conversations.bulkUpdateStatus(workspaceId, { channel, agentId: filter.agentId }, status, now());
    return { count, message: `${count} conversation${count === 1 ? '' : 's'} set to ${status}` };
  }

  /** One page of the workspace's conversations, most recently active first. */
  async list(workspaceId: string, query: ConversationListQuery): Promise<ConversationListPage> {
    const limit = Math.min(Math.max(1, query.limit ?? LIST_LIMIT.default), LIST_LIMIT.max);
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    const filter = conversationFilter(query);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // One row more than asked tells whether another page follows.
    const rows = await this.store.conversations.list(workspaceId, filter, { limit: limit + 1, after });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const toView = await this.viewer(workspaceId, page, query.messages ?? 'latest');
    return {
      items: page.map(toView),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
    };
  }

  async export(workspaceId: string, id: string, format: 'json' | 'html'): Promise<ConversationExport> {
    const transcript = toTranscript(await this.view(workspaceId, await this.find(workspaceId, id), 'all'));
    return format === 'json' ? { format, transcript } : { format, html: renderTranscriptHtml(transcript) };
  }

  async rateMessage(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord> {
    const rated = await this.store.messages.rate(workspaceId, id, value);
    if (rated !== undefined) return rated;
    throw (await this.store.messages.ownerOf(id)) === undefined ? notFound('Message', id) : forbidden('Message', id);
  }

  /**
   * The conversation and visitor an agent query writes in, created when absent or unknown. Ids are
   * unique per workspace: another workspace's conversation of the same id is never touched.
   */
  async ensureConversation(workspaceId: string, input: EnsureConversationInput): Promise<EnsuredConversation> {
    const at = now();
    if (input.agentId !== null) await findInWorkspace(this.store.agents, 'Agent', workspaceId, input.agentId);
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
      isAiEnabled: true,
      title: '',
      metadata: {},
      visitorId,
      contactId,
      createdAt: at,
    };
    const ensured = await this.store.conversations.ensure(conversation, conversationCreatedEvent(conversation));
    if (ensured.created) this.onEvent();
    let current = ensured.conversation;
    if (contactId !== null && current.contactId !== contactId) {
      current = (await this.store.conversations.update(workspaceId, id, { contactId }, {}, at))?.after ?? current;
    }
    return { conversation: current, visitorId, created: ensured.created };
  }

  /**
   * Adds a message; the conversation becomes the most recently active, a human message reopens a
   * resolved one and names an untitled one.
   */
  async addMessage(workspaceId: string, conversationId: string, input: NewMessageInput): Promise<AppendedMessage> {
    const message: NewMessage = {
      id: newId(),
      workspaceId,
      conversationId,
      from: input.from,
      text: input.text,
      sources: input.sources ?? [],
      // What people write is unread until someone opens it; the rest needs no attention.
      read: input.from !== 'human',
      attachments: input.attachments ?? [],
      usage: input.usage ?? null,
      model: input.model ?? null,
      visitorId: input.visitorId ?? null,
      createdAt: now(),
    };
    const title = input.from === 'human' ? titleFrom(input.text) : undefined;
    const appended = await this.store.conversations.appendMessage(message, title || undefined, messageCreatedEvent(message));
    if (appended !== undefined) {
      this.onEvent();
      return appended;
    }
    await this.find(workspaceId, conversationId);
    throw notFound('Conversation', conversationId);
  }

  private find(workspaceId: string, id: string): Promise<ConversationRecord> {
    return findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
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

  /** The event a change to `status` emits, with the messages as they will stand after the change. */
  private async statusEvent(conversation: ConversationRecord, status: ConversationStatus, notice: NewMessage | undefined) {
    const { workspaceId } = conversation;
    const { agent, contact } = await this.view(workspaceId, conversation, 'none');
    const messages = await this.store.messages.listByConversations(workspaceId, [conversation.id], { latest: EVENT_MESSAGE_COUNT });
    return conversationStatusEvent({
      conversation,
      status,
      agent,
      contact,
      messages: notice === undefined ? messages : [...messages, { ...notice, eval: null }],
    });
  }

  private async view(workspaceId: string, conversation: ConversationRecord, listed: ListedMessages): Promise<ConversationView> {
    return (await this.viewer(workspaceId, [conversation], listed))(conversation);
  }

  /** Reads the agents, contacts and messages of `conversations`, one batch per kind, and joins them on demand. */
  private async viewer(
    workspaceId: string,
    conversations: readonly ConversationRecord[],
    listed: ListedMessages,
  ): Promise<(conversation: ConversationRecord) => ConversationView> {
    const ids = conversations.map((conversation) => conversation.id);
    const [agents, contacts, messages] = await Promise.all([
      Promise.all(distinct(conversations.map((c) => c.agentId)).map((agentId) => this.store.agents.find(workspaceId, agentId))),
      this.store.participants.contacts(workspaceId, distinct(conversations.map((c) => c.contactId))),
      listed === 'none'
        ? []
        : this.store.messages.listByConversations(workspaceId, ids, listed === 'latest' ? { latest: 1 } : {}),
    ]);
    const messagesOf = groupBy(messages, (message) => message.conversationId);
    return (conversation) => ({
      conversation,
      agent: agents.find((agent) => agent !== undefined && agent.id === conversation.agentId) ?? null,
      contact: contacts.find((contact) => contact.id === conversation.contactId) ?? null,
      messages: messagesOf.get(conversation.id) ?? [],
    });
  }
}
