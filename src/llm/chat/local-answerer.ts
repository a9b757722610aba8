import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { countTokens } from '../../text/count-tokens.js';
import type { LabelledPassage } from '../prompt/context-block.js';
import { PARLEY_PROVIDER_KEY, parseContextBlock } from '../prompt/context-block.js';
import type { ExtractiveAnswerOptions } from './compose-extractive-answer.js';
import { composeExtractiveAnswer } from './compose-extractive-answer.js';

export type LocalAnswererOptions = ExtractiveAnswerOptions;

/** What the answerer read from a prompt: the question and the passages it may quote. */
export interface AnswererInput {
  question: string;
  passages: LabelledPassage[];
}

const TEXT_ID = 'txt-0';

/**
 * The built-in answerer: a language model (AI SDK spec v3) that quotes the retrieved passages instead of
 * generating text, so a fresh install answers offline through the same `streamText`/`generateText` path as
 * a remote model.
 *
 * It reads the prompt that `assemblePrompt` builds (format in `../prompt/context-block.ts`):
 * - the passages: the first context block of the last user message, else of the system message;
 * - the question: `providerOptions.parley.query` of the last user message, else that message's text
 *   without the context block.
 *
 * Citations: the answer cites the passages it quotes, and only those, as `[n]` with n the passage's label in
 * the context block (as `assemblePrompt` numbers them: `[n]` is the prompt's n-th passage); it writes no
 * "Sources:" line, since the caller lists the cited passages as the answer's sources. "Could not find"
 * answers cite nothing.
 *
 * Sampling settings (temperature, top-p, penalties, seed) have no meaning here and are ignored, as are tools
 * and files. `maxOutputTokens` cuts the answer at a word; `usage` is counted with cl100k.
 */
export class LocalAnswerer implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'parley';
  readonly modelId = 'local-extractive';
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #options: LocalAnswererOptions;

  constructor(options: LocalAnswererOptions = {}) {
    this.#options = { ...options };
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    options.abortSignal?.throwIfAborted();
    const { deltas, truncated, inputTokens } = this.#answer(options);
    const text = deltas.join('');
    return {
      content: text === '' ? [] : [{ type: 'text', text }],
      finishReason: { unified: truncated ? 'length' : 'stop', raw: undefined },
      usage: usage(inputTokens, text),
      warnings: [],
      response: { modelId: this.modelId },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    signal?.throwIfAborted();
    const { deltas, truncated, inputTokens } = this.#answer(options);
    const parts: LanguageModelV3StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', modelId: this.modelId },
      { type: 'text-start', id: TEXT_ID },
      ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: TEXT_ID, delta })),
      { type: 'text-end', id: TEXT_ID },
      {
        type: 'finish',
        finishReason: { unified: truncated ? 'length' : 'stop', raw: undefined },
        usage: usage(inputTokens, deltas.join('')),
      },
    ];

    let next = 0;
    let onAbort: (() => void) | undefined;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      start(controller) {
        onAbort = () => controller.error(signal?.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      },
      async pull(controller) {
        // One part per pull, a macrotask apart: a reader that aborts mid-answer gets no more deltas.
        if (next > 0) await nextTurn();
        if (signal?.aborted) return;
        const part = parts[next++];
        if (part) controller.enqueue(part);
        if (next >= parts.length) {
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          controller.close();
        }
      },
      cancel() {
        if (onAbort) signal?.removeEventListener('abort', onAbort);
      },
    });
    return { stream };
  }

  /** The answer as word-sized deltas (each with its leading space), cut to `maxOutputTokens`. */
  #answer(options: LanguageModelV3CallOptions): { deltas: string[]; truncated: boolean; inputTokens: number } {
    const { question, passages } = readPrompt(options.prompt);
    const { text } = composeExtractiveAnswer(question, passages, this.#options);
    const words: string[] = text.match(/\s*\S+/g) ?? [];
    const limit = options.maxOutputTokens;
    let deltas: string[] = words;
    if (limit !== undefined) {
      deltas = [];
      let prefix = '';
      for (const word of words) {
        // The prefix, not the word, is counted: BPE counts are not quite additive across word joins.
        prefix += word;
        if (countTokens(prefix) > limit) break;
        deltas.push(word);
      }
    }
    return { deltas, truncated: deltas.length < words.length, inputTokens: countTokens(promptText(options.prompt)) };
  }
}

/** The question and passages a prompt carries (see {@link LocalAnswerer}); missing parts are empty. */
export function readPrompt(prompt: readonly LanguageModelV3Message[]): AnswererInput {
  const lastUser = prompt.findLast((message) => message.role === 'user');
  const userText = lastUser ? messageText(lastUser) : '';
  const system = prompt
    .filter((message) => message.role === 'system')
    .map(messageText)
    .join('\n');
  const inUser = parseContextBlock(userText);
  const block = inUser ?? parseContextBlock(system);

  const hinted = lastUser?.providerOptions?.[PARLEY_PROVIDER_KEY]?.query;
  let question: string;
  if (typeof hinted === 'string') question = hinted;
  else if (inUser) question = `${inUser.before}\n${inUser.after}`.trim();
  else question = userText;
  return { question, passages: block?.passages ?? [] };
}

function messageText(message: LanguageModelV3Message): string {
  if (message.role === 'system') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function promptText(prompt: readonly LanguageModelV3Message[]): string {
  return prompt.map(messageText).join('\n');
}

function usage(inputTokens: number, output: string): LanguageModelV3Usage {
  const outputTokens = countTokens(output);
  return {
    inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}
