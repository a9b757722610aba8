import type {
  AppendedMessage,
  ContactFields,
  ContactRecord,
  ConversationRecord,
  InboxCounts,
  MemberRecord,
  ConversationStatus,
  MessageEval,
  MessageFrom,
  MessageNotice,
  MessageRecord,
  MessageUsage,
  NewConversation,
  NewKnowledgeGap,
  NewMessage,
  Store,
} from '../store/store.js';
import { normalizeChannel, type ChannelInput } from './channels.js';
import { decodeCursor, encodeCursor } from './conversation-cursor.js';
import { newestFirst } from './conversation-history.js';
import { conversationFilter, LIST_LIMIT, type ConversationListPage, type ConversationListQuery } from './conversation-list.js';
import { senderOf, type ConversationDetails, type ConversationView, type ListedMessages, type MessageSender } from './conversation-view.js';
import {
  conversationCreatedEvent,
  conversationStatusEvent,
  conversationUpdatedEvent,
  EVENT_MESSAGE_COUNT,
  messageCreatedEvent,
  updatedEventFor,
} from '../events/conversation-events.js';
import { renderTranscriptHtml, toTranscript, type ConversationTranscript } from './conversation-export.js';
import { ParleyError, forbidden, invalid, notFound } from '../errors.js';
import type { WorkspaceCaller } from './callers.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import type { KnowledgeGapFinding } from './knowledge-gaps.js';
import { questionKey } from '../text/question-key.js';
import { handoffNotices, noticeText } from './handoff.js';

export const CONVERSATION_STATUSES = ['UNRESOLVED', 'RESOLVED', 'HUMAN_REQUESTED'] as const satisfies readonly ConversationStatus[];

/** Longest title taken from a first message. */
const TITLE_LENGTH = 100;

export interface ConversationPatch {
  isAiEnabled?: boolean;
  status?: ConversationStatus;
  /** A member of the workspace, or null to unassign. */
  assigneeId?: string | null;
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
  /** A signed-in member trying the agent in the dashboard's playground (set when it is created only). */
  playground?: boolean;
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
  /** The member writing, answering for the workspace (from `human`). */
  memberId?: string | null;
  /** Whether members have seen it; by default only visitor messages start unread. */
  read?: boolean;
  /** An agent answer that found nothing to answer from: the question, recorded as a knowledge gap with it. */
  knowledgeGap?: KnowledgeGapFinding & { question: string };
  /** An agent answer that stopped before its end: the text is what had been written. */
  interrupted?: boolean;
  /** A system message the server writes: what it tells, by kind (the text is its English wording). */
  notice?: MessageNotice;
}

/** What the end of an answer started with {@link ConversationService.startAnswer} sets. */
export type AnswerEnding = Pick<NewMessageInput, 'text' | 'sources' | 'usage' | 'knowledgeGap' | 'interrupted'>;

/** The message `input` makes in a conversation, written now. */
function newMessage(workspaceId: string, conversationId: string, input: NewMessageInput): NewMessage {
  return {
    id: newId(),
    workspaceId,
    conversationId,
    from: input.from,
    text: input.text,
    sources: input.sources ?? [],
    // What visitors write is unread until a member opens it; the rest needs no attention.
    read: input.read ?? (input.from !== 'human' || (input.memberId ?? null) !== null),
    attachments: input.attachments ?? [],
    usage: input.usage ?? null,
    model: input.model ?? null,
    visitorId: input.visitorId ?? null,
    memberId: input.memberId ?? null,
    createdAt: now(),
    interrupted: input.interrupted ?? false,
    notice: input.notice ?? null,
  };
}

/** A system message telling the visitor `notice`, in its stored English words. */
const noticeInput = (notice: MessageNotice): NewMessageInput => ({ from: 'system', text: noticeText(notice), notice });

/** The knowledge gap an agent answer records, when it found nothing to answer from. */
function knowledgeGapOf(message: NewMessage, agentId: string | null, gap: NewMessageInput['knowledgeGap']): NewKnowledgeGap | undefined {
  return (
    gap && {
      id: newId(),
      workspaceId: message.workspaceId,
      agentId,
      conversationId: message.conversationId,
      messageId: message.id,
      question: gap.question,
      questionKey: questionKey(gap.question),
      reason: gap.reason,
      bestScore: gap.bestScore,
      createdAt: message.createdAt,
    }
  );
}

/**
 * An agent answer in its conversation while the model still writes it (see
 * {@link ConversationService.startAnswer}): marked interrupted, and announced only at its end.
 */
export class AnswerInProgress {
  constructor(
    private readonly store: Store,
    private readonly started: NewMessage,
    private readonly agentId: string | null,
    private readonly onEvent: (workspaceId: string) => void,
  ) {}

  /** Saves the words written so far. */
  async save(text: string): Promise<void> {
    await this.store.conversations.rewriteAnswer({ ...this.started, text });
  }

  /** The answer as it ended (`interrupted` when it stopped early), announced (`message.created`) with its knowledge gap. */
  async end(input: AnswerEnding): Promise<MessageRecord> {
    const { text, sources = [], usage = null, interrupted = false } = input;
    const message: NewMessage = { ...this.started, text, sources, usage, interrupted };
    const ended = await this.store.conversations.rewriteAnswer(message, {
      event: messageCreatedEvent(message, this.agentId),
      gap: knowledgeGapOf(message, this.agentId, input.knowledgeGap),
      at: now(),
    });
    if (ended === undefined) throw notFound('Conversation', message.conversationId);
    this.onEvent(message.workspaceId);
    return ended;
  }
}

/** A member's reply to a visitor. */
export interface ReplyInput {
  text: string;
  /** Who writes: a member caller writes as themself; an API key must name the member. */
  memberId?: string;
  /** Switch the agent off so it does not answer too; true unless told otherwise. */
  takeOver?: boolean;
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
    /** Called after a change recorded an event for the workspace, so in-process workers and streams see it at once. */
    private readonly onEvent: (workspaceId: string) => void = () => undefined,
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

  /** The whole conversation with its messages newest first: all, or the page before `cursor` (see {@link newestFirst}). */
  async history(workspaceId: string, id: string, cursor?: string): Promise<ConversationDetails> {
    const details = await this.get(workspaceId, id);
    return { ...details, messages: newestFirst(details.messages, cursor) };
  }

  /** A conversation's messages, oldest first (the history an answer is composed from). */
  async messages(workspaceId: string, id: string): Promise<MessageRecord[]> {
    await this.find(workspaceId, id);
    return this.store.messages.listByConversations(workspaceId, [id]);
  }

  /**
   * Changes the agent switch, status and metadata. Switching the agent off leaves a system message naming
   * `by` (the member taking over) when given; asking for a person leaves one telling the visitor what happens
   * next; switching the agent back on while a person is asked for hands the conversation back to it
   * (UNRESOLVED). A new status RESOLVED or HUMAN_REQUESTED writes its event to the outbox, in the same transaction.
   */
  async patch(workspaceId: string, id: string, requested: ConversationPatch, by?: MemberRecord): Promise<ConversationView> {
    const conversation = await this.find(workspaceId, id);
    if (typeof requested.assigneeId === 'string') await this.member(workspaceId, requested.assigneeId, 'assigneeId');
    const handsBack = requested.isAiEnabled === true && requested.status === undefined && conversation.status === 'HUMAN_REQUESTED';
    const patch: ConversationPatch = handsBack ? { ...requested, status: 'UNRESOLVED' } : requested;
    const at = now();
    const notice = (told: MessageNotice): NewMessage => ({ ...newMessage(workspaceId, id, noticeInput(told)), createdAt: at });
    const willSwitchOff = conversation.isAiEnabled && patch.isAiEnabled === false;
    const willRequest = conversation.status !== 'HUMAN_REQUESTED' && patch.status === 'HUMAN_REQUESTED';
    const joined = willSwitchOff ? notice(handoffNotices.personJoined(by?.name.trim() || null)) : undefined;
    const personAsked = willRequest ? notice(handoffNotices.humanRequested(await this.contactEmail(conversation))) : undefined;
    const notices = [personAsked, joined].filter((message) => message !== undefined);
    const event = patch.status === undefined ? undefined : await this.statusEvent(conversation, patch.status, notices);
    const updated = await this.store.conversations.update(
      workspaceId,
      id,
      { isAiEnabled: patch.isAiEnabled, status: patch.status, metadata: patch.metadata, assigneeId: patch.assigneeId },
      {
        onAiSwitchedOff: joined,
        onHumanRequested: personAsked,
        announce: (message) => messageCreatedEvent(message, conversation.agentId),
        onStatusChanged: event,
        onUpdated: updatedEventFor,
      },
      at,
    );
    if (updated !== undefined && updatedEventFor(updated) !== undefined) this.onEvent(workspaceId);
    return this.view(workspaceId, updated?.after ?? (await this.find(workspaceId, id)), 'all');
  }

  /** Where the conversation's visitor said they can be reached by e-mail, if they did. */
  private async contactEmail(conversation: ConversationRecord): Promise<string | null> {
    if (conversation.contactId === null) return null;
    const [contact] = await this.store.participants.contacts(conversation.workspaceId, [conversation.contactId]);
    return contact?.email ?? null;
  }

  /**
   * Sets the status of every conversation of the workspace matching the filters (all without one). Each
   * conversation that changes emits `conversation.updated` (live views follow), not the notifying events:
   * one bulk change must not send a mail per conversation.
   */
  async updateStatus(workspaceId: string, query: ConversationListQuery, status: ConversationStatus): Promise<{ count: number; message: string }> {
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    if (query.assigneeId !== undefined) await this.member(workspaceId, query.assigneeId, 'assigneeId');
    const count = await this.store.conversations.bulkUpdateStatus(workspaceId, conversationFilter(query), status, now(), ({ after }) =>
      conversationUpdatedEvent(after, ['status']),
    );
    if (count > 0) this.onEvent(workspaceId);
    return { count, message: `${count} conversation${count === 1 ? '' : 's'} set to ${status}` };
  }

  /** How many conversations each inbox tab holds, and how many of them are unread, under the list filters. */
  async inboxCounts(workspaceId: string, query: ConversationListQuery, memberId: string | null): Promise<InboxCounts> {
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    return this.store.conversations.countTabs(workspaceId, conversationFilter(query), memberId);
  }

  /** Marks the visitor's messages read for the members; the number marked. */
  async markRead(workspaceId: string, id: string): Promise<number> {
    const marked = await this.store.conversations.markRead(workspaceId, id, (conversation) => conversationUpdatedEvent(conversation, ['read']));
    if (marked === undefined) {
      await this.find(workspaceId, id);
      throw notFound('Conversation', id);
    }
    if (marked > 0) this.onEvent(workspaceId);
    return marked;
  }

  /**
   * A member answers the visitor as a person. Unless told otherwise this takes the conversation over (the
   * agent is switched off), assigns it to the member when nobody has it, and marks the visitor's messages read.
   */
  async reply(caller: WorkspaceCaller, id: string, input: ReplyInput): Promise<{ view: ConversationView; reply: MessageRecord }> {
    const { workspaceId } = caller;
    const conversation = await this.find(workspaceId, id);
    const writer = await this.writer(caller, input.memberId);
    const takeOver = input.takeOver ?? true;
    const changes: ConversationPatch = {
      ...(takeOver && conversation.isAiEnabled ? { isAiEnabled: false } : {}),
      ...(conversation.assigneeId === null ? { assigneeId: writer.id } : {}),
    };
    if (Object.keys(changes).length > 0) await this.patch(workspaceId, id, changes, writer);
    const { message } = await this.addMessage(workspaceId, id, { from: 'human', text: input.text, memberId: writer.id });
    await this.markRead(workspaceId, id);
    return { view: await this.view(workspaceId, await this.find(workspaceId, id), 'none'), reply: message };
  }

  /** The member a caller is: a member token's own; for an API key, the one it names (`memberId`), if any. */
  async callerMember(caller: WorkspaceCaller, memberId?: string): Promise<MemberRecord | undefined> {
    if (caller.kind === 'member') {
      const member = await this.store.members.findByUser(caller.workspaceId, caller.userId);
      if (member === undefined) throw new ParleyError('FORBIDDEN', 'You are no longer a member of this workspace');
      if (memberId !== undefined && memberId !== member.id) {
        throw invalid('memberId names another member', [{ field: 'memberId', message: 'a member writes as themself; leave it out' }]);
      }
      return member;
    }
    return memberId === undefined ? undefined : this.member(caller.workspaceId, memberId, 'memberId');
  }

  private async writer(caller: WorkspaceCaller, memberId: string | undefined): Promise<MemberRecord> {
    const member = await this.callerMember(caller, memberId);
    if (member === undefined) {
      throw invalid('An API key replies in the name of a member: say which with memberId', [
        { field: 'memberId', message: 'is required with an API key' },
      ]);
    }
    return member;
  }

  /** The sender of a message of the workspace, as conversation records show it. */
  async senderOf(workspaceId: string, message: MessageRecord): Promise<MessageSender | null> {
    return senderOf(message, await this.view(workspaceId, await this.find(workspaceId, message.conversationId), 'none'));
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
      playground: input.playground === true,
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

  /**
   * Adds a message; the conversation becomes the most recently active, a human message reopens a
   * resolved one (a visitor's with a notice saying so) and names an untitled one.
   */
  async addMessage(workspaceId: string, conversationId: string, input: NewMessageInput): Promise<AppendedMessage> {
    const conversation = await this.find(workspaceId, conversationId);
    const message = newMessage(workspaceId, conversationId, input);
    // A visitor's first words name the conversation; a member's reply does not.
    const fromVisitor = input.from === 'human' && message.memberId === null;
    const title = fromVisitor ? titleFrom(input.text) : undefined;
    const appended = await this.store.conversations.appendMessage(
      message,
      title || undefined,
      messageCreatedEvent(message, conversation.agentId),
      knowledgeGapOf(message, conversation.agentId, input.knowledgeGap),
    );
    // Only a conversation deleted in between is missing here.
    if (appended === undefined) throw notFound('Conversation', conversationId);
    this.onEvent(workspaceId);
    if (fromVisitor && conversation.status === 'RESOLVED' && appended.conversation.status !== 'RESOLVED') {
      await this.addMessage(workspaceId, conversationId, noticeInput(handoffNotices.reopened));
    }
    return appended;
  }

  /**
   * Adds an agent answer while the model still writes it, with its first words, so what the visitor saw
   * outlives the server: marked interrupted until {@link AnswerInProgress.end}, which announces it.
   */
  async startAnswer(workspaceId: string, conversationId: string, input: NewMessageInput): Promise<AnswerInProgress> {
    const conversation = await this.find(workspaceId, conversationId);
    const message = newMessage(workspaceId, conversationId, { ...input, interrupted: true });
    if ((await this.store.conversations.appendMessage(message)) === undefined) throw notFound('Conversation', conversationId);
    return new AnswerInProgress(this.store, message, conversation.agentId, this.onEvent);
  }

  /** Who the conversation's visitor says they are (a lead form): its contact, created or merged by e-mail. */
  async setContact(workspaceId: string, id: string, visitorId: string, fields: ContactFields): Promise<ContactRecord | undefined> {
    const at = now();
    const contact = await this.saveContact(workspaceId, fields, at);
    if (contact === undefined) return undefined;
    await this.store.participants.ensureVisitor(workspaceId, visitorId, contact.id, at);
    await this.store.conversations.update(workspaceId, id, { contactId: contact.id }, {}, at);
    return contact;
  }

  private find(workspaceId: string, id: string): Promise<ConversationRecord> {
    return findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
  }


  /** The workspace's member `id`; a 400 naming `field` when there is none. */
  private async member(workspaceId: string, id: string, field: string): Promise<MemberRecord> {
    const member = await this.store.members.find(workspaceId, id);
    if (member === undefined) throw invalid(`${field} is not a member of this workspace`, [{ field, message: 'must be a member id of this workspace' }]);
    return member;
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
  private async statusEvent(conversation: ConversationRecord, status: ConversationStatus, notices: readonly NewMessage[]) {
    const { workspaceId } = conversation;
    const view = await this.view(workspaceId, conversation, 'none');
    const messages = await this.store.messages.listByConversations(workspaceId, [conversation.id], { latest: EVENT_MESSAGE_COUNT });
    // Members are named in the e-mail; visitors and the agent as before (the contact, the agent's name).
    const senderNames = new Map(
      messages.flatMap((message) => {
        const sender = senderOf(message, view);
        return sender?.type === 'user' && sender.name !== null ? [[message.id, sender.name] as const] : [];
      }),
    );
    return conversationStatusEvent({
      conversation,
      status,
      agent: view.agent,
      contact: view.contact,
      messages: [...messages, ...notices.map((notice) => ({ ...notice, eval: null }))],
      senderNames,
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
    const [agents, contacts, messages, unread, members] = await Promise.all([
      Promise.all(distinct(conversations.map((c) => c.agentId)).map((agentId) => this.store.agents.find(workspaceId, agentId))),
      this.store.participants.contacts(workspaceId, distinct(conversations.map((c) => c.contactId))),
      listed === 'none'
        ? []
        : this.store.messages.listByConversations(workspaceId, ids, listed === 'latest' ? { latest: 1 } : {}),
      this.store.messages.unreadCounts(workspaceId, ids),
      this.store.members.list(workspaceId),
    ]);
    const messagesOf = groupBy(messages, (message) => message.conversationId);
    return (conversation) => {
      return {
        conversation,
        agent: agents.find((agent) => agent !== undefined && agent.id === conversation.agentId) ?? null,
        contact: contacts.find((contact) => contact.id === conversation.contactId) ?? null,
        messages: messagesOf.get(conversation.id) ?? [],
        members,
        unreadCount: unread.get(conversation.id) ?? 0,
      };
    };
  }
}
