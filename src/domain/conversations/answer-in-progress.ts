import { messageCreatedEvent } from '../../events/conversation-events.js';
import { notFound } from '../../errors.js';
import type { MessageRecord, NewMessage, Store } from '../../store/store.js';
import { now } from '../ids.js';
import { knowledgeGapOf, type NewMessageInput } from './new-message.js';

/** What the end of an answer started with {@link ConversationMessages.startAnswer} sets. */
export type AnswerEnding = Pick<NewMessageInput, 'text' | 'sources' | 'usage' | 'knowledgeGap' | 'interrupted'>;

/**
 * An agent answer in its conversation while the model still writes it (see
 * {@link ConversationMessages.startAnswer}): marked interrupted, and announced only at its end.
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
