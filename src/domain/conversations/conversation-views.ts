import type { ConversationRecord, MessageRecord, Store } from '../../store/store.js';
import { newestFirst } from '../conversation-history.js';
import { renderTranscriptHtml, toTranscript, type ConversationTranscript } from '../conversation-export.js';
import { senderOf, type ConversationDetails, type ConversationView, type ListedMessages, type MessageSender } from '../conversation-view.js';
import { findInWorkspace } from '../scoped.js';
import { conversationTitle, isForVisitor, UNREAD, VISITOR_MESSAGE } from './conversation-rules.js';

export type ConversationExport = { format: 'json'; transcript: ConversationTranscript } | { format: 'html'; html: string };

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

/** Reading conversations: one with what its records point at, its history, its export, who wrote a message. */
export class ConversationViews {
  constructor(private readonly store: Store) {}

  find(workspaceId: string, id: string): Promise<ConversationRecord> {
    return findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
  }

  /** The whole conversation: all messages oldest first, the agent, the contact and the visitors. */
  async get(workspaceId: string, id: string): Promise<ConversationDetails> {
    const conversation = await this.find(workspaceId, id);
    const view = await this.of(conversation, 'all');
    const visitors = await this.store.participants.visitors(
      workspaceId,
      distinct([conversation.visitorId, ...view.messages.map((message) => message.visitorId)]),
    );
    const contacts = await this.store.participants.contacts(workspaceId, distinct(visitors.map((visitor) => visitor.contactId)));
    const { visitorId } = conversation;
    const started = visitorId === null ? [] : await this.store.conversations.list(workspaceId, { visitorId });
    return {
      ...view,
      visitorConversations: started.filter((other) => other.id !== conversation.id).length,
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

  /** A conversation's messages the visitor sees, oldest first (the history an answer is composed from): no private notes. */
  async messages(workspaceId: string, id: string): Promise<MessageRecord[]> {
    await this.find(workspaceId, id);
    return (await this.store.messages.listByConversations(workspaceId, [id])).filter(isForVisitor);
  }

  /** The transcript as the visitor saw it (it may be handed to them): no private notes. */
  async export(workspaceId: string, id: string, format: 'json' | 'html'): Promise<ConversationExport> {
    const view = await this.of(await this.find(workspaceId, id), 'all');
    const transcript = toTranscript({ ...view, messages: view.messages.filter(isForVisitor) });
    return format === 'json' ? { format, transcript } : { format, html: renderTranscriptHtml(transcript) };
  }

  /** The sender of a message of the workspace, as conversation records show it. */
  async senderOf(workspaceId: string, message: MessageRecord): Promise<MessageSender | null> {
    return senderOf(message, await this.of(await this.find(workspaceId, message.conversationId), 'none'));
  }

  /** The view of one conversation, with the messages `listed`. */
  async of(conversation: ConversationRecord, listed: ListedMessages): Promise<ConversationView> {
    return (await this.viewer(conversation.workspaceId, [conversation], listed))(conversation);
  }

  /** Reads the agents, contacts and messages of `conversations`, one batch per kind, and joins them on demand. */
  async viewer(
    workspaceId: string,
    conversations: readonly ConversationRecord[],
    listed: ListedMessages,
  ): Promise<(conversation: ConversationRecord) => ConversationView> {
    const ids = conversations.map((conversation) => conversation.id);
    const untitled = conversations.filter((conversation) => conversation.title === '').map((conversation) => conversation.id);
    const [agents, contacts, messages, unread, members, labels, firstQuestions] = await Promise.all([
      Promise.all(distinct(conversations.map((c) => c.agentId)).map((agentId) => this.store.agents.find(workspaceId, agentId))),
      this.store.participants.contacts(workspaceId, distinct(conversations.map((c) => c.contactId))),
      listed === 'none' ? [] : this.store.messages.listByConversations(workspaceId, ids, listed === 'latest' ? { latest: 1 } : {}),
      this.store.messages.countMatching(workspaceId, ids, UNREAD),
      this.store.members.list(workspaceId),
      this.store.labels.labelsOf(workspaceId, ids),
      // Conversations untitled from before titles were kept are named by their first question when shown.
      this.store.messages.firstMatching(workspaceId, untitled, VISITOR_MESSAGE),
    ]);
    const messagesOf = groupBy(messages, (message) => message.conversationId);
    return (conversation) => ({
      conversation,
      agent: agents.find((agent) => agent !== undefined && agent.id === conversation.agentId) ?? null,
      contact: contacts.find((contact) => contact.id === conversation.contactId) ?? null,
      messages: messagesOf.get(conversation.id) ?? [],
      members,
      unreadCount: unread.get(conversation.id) ?? 0,
      title: conversationTitle(conversation.title, firstQuestions.get(conversation.id)?.text),
      labels: labels.get(conversation.id) ?? [],
    });
  }
}
