import type { AnswerSourceRecord, MessageRecord } from '../store/store.js';
import type { AnswerEnding, AnswerInProgress } from './conversations/answer-in-progress.js';
import type { ConversationMessages } from './conversations/conversation-messages.js';

/** How often an answer under way is saved: the most of what the visitor saw that a killed server loses. */
const SAVE_EVERY_MS = 1_000;

/**
 * An agent answer stored as the model streams it, so what the visitor saw outlives the server: its first
 * words are added to the conversation at once (marked interrupted), the words after them saved at most once
 * a second, and its end rewrites it whole. An answer that streamed nothing is added once, at its end.
 */
export class AnswerCheckpoints {
  #text = '';
  #answer: AnswerInProgress | undefined;
  #saving: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #savedAt = 0;

  constructor(
    private readonly messages: ConversationMessages,
    private readonly workspaceId: string,
    private readonly conversationId: string,
    private readonly model: string,
  ) {}

  add(delta: string): void {
    this.#text += delta;
    this.#timer ??= setTimeout(() => this.#save(), Math.max(0, this.#savedAt + SAVE_EVERY_MS - Date.now()));
  }

  /** Stores the answer as it ended. */
  async end(ending: AnswerEnding): Promise<MessageRecord> {
    clearTimeout(this.#timer);
    await this.#saving;
    if (this.#answer !== undefined) return this.#answer.end(ending);
    const { message } = await this.messages.add(this.workspaceId, this.conversationId, { from: 'agent', model: this.model, ...ending });
    return message;
  }

  /** After the model failed: the words streamed before, if any, stay as the answer, marked interrupted. */
  async keepWhatStreamed(sources: AnswerSourceRecord[]): Promise<void> {
    if (this.#text === '') return;
    // The model's failure is what the caller hears, even when storing this fails too.
    await this.end({ text: this.#text, sources, interrupted: true }).catch(() => undefined);
  }

  #save(): void {
    this.#timer = undefined;
    this.#savedAt = Date.now();
    const text = this.#text;
    this.#saving = this.#saving
      .then(async () => {
        if (this.#answer !== undefined) return this.#answer.save(text);
        this.#answer = await this.messages.startAnswer(this.workspaceId, this.conversationId, { from: 'agent', text, model: this.model });
      })
      // A save that failed is made good by the next one, or by the end, which reports its own failure.
      .catch(() => undefined);
  }
}
