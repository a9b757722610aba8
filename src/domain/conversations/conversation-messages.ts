import { messageCreatedEvent } from '../../events/conversation-events.js';
import { forbidden, notFound } from '../../errors.js';
import type { AppendedMessage, ConversationRecord, MessageEval, MessageRecord, Store } from '../../store/store.js';
import { handoffNotices } from '../handoff.js';
import { findInWorkspace } from '../scoped.js';
import { AnswerInProgress } from './answer-in-progress.js';
import { firstTitle, isVisitor, transitionOnMessage } from './conversation-rules.js';
import { knowledgeGapOf, newMessage, noticeInput, type NewMessageInput } from './new-message.js';

/** Adding messages to a conversation (whoever writes them) and rating them: the one path every message takes. */
export class ConversationMessages {
  constructor(
    private readonly store: Store,
    /** Called after a change recorded an event for the workspace, so in-process workers and streams see it at once. */
    private readonly onEvent: (workspaceId: string) => void,
  ) {}

  /**
   * Adds a message; the conversation becomes the most recently active, a person's message reopens a resolved
   * one (a visitor's with a notice saying so) and a visitor's names an untitled one (see conversation-rules.ts).
   */
  async add(workspaceId: string, conversationId: string, input: NewMessageInput): Promise<AppendedMessage> {
    const conversation = await this.find(workspaceId, conversationId);
    const message = newMessage(workspaceId, conversationId, input);
    const appended = await this.store.conversations.appendMessage(message, {
      transition: transitionOnMessage(message),
      titleIfUntitled: firstTitle(message, message.text),
      event: messageCreatedEvent(message, conversation.agentId),
      gap: knowledgeGapOf(message, conversation.agentId, input.knowledgeGap),
    });
    // Only a conversation deleted in between is missing here.
    if (appended === undefined) throw notFound('Conversation', conversationId);
    this.onEvent(workspaceId);
    if (isVisitor(message) && conversation.status === 'RESOLVED' && appended.conversation.status !== 'RESOLVED') {
      await this.add(workspaceId, conversationId, noticeInput(handoffNotices.reopened));
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

  async rate(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord> {
    const rated = await this.store.messages.rate(workspaceId, id, value);
    if (rated !== undefined) return rated;
    throw (await this.store.messages.ownerOf(id)) === undefined ? notFound('Message', id) : forbidden('Message', id);
  }

  private find(workspaceId: string, id: string): Promise<ConversationRecord> {
    return findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
  }
}
