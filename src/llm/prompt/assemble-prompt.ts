import type { ModelMessage } from 'ai';
import { countTokens } from '../../text/count-tokens.js';
import { NOT_FOUND_ANSWER } from '../chat/compose-extractive-answer.js';
import type { ContextBlockPassage } from './context-block.js';
import { PARLEY_PROVIDER_KEY, formatContextBlock, formatPassage, neutralizeMarkers } from './context-block.js';

export const DEFAULT_USER_PROMPT_TEMPLATE = '{query}';

/** Who wrote a stored message; only `agent` becomes the assistant, everything else is the user. */
export type MessageSender = 'human' | 'agent' | 'system' | (string & {});

export interface HistoryMessage {
  from: MessageSender;
  text: string;
}

/** A retrieved passage; `source` is what it is cited as (file name or URL). */
export type PromptPassage = ContextBlockPassage;

export interface PromptBudgets {
  /** Tokens (cl100k) that past messages may take, counting their text. */
  historyTokens: number;
  /** Tokens the whole context block may take: header, markers, labels and passage text. */
  contextTokens: number;
}

export interface PromptInput {
  /** The agent's instructions; empty or missing means none. Used as is: no placeholders. */
  systemPrompt?: string | null;
  /** Every `{query}` and `{context}` is replaced; empty or missing means `{query}`. */
  userPromptTemplate?: string | null;
  query: string;
  /**
   * The conversation so far, oldest first, without the current query. A trailing human message equal to
   * the query is taken to be the current message already stored, and left out.
   */
  history: readonly HistoryMessage[];
  /** Retrieved passages, best first. */
  passages: readonly PromptPassage[];
  budgets: PromptBudgets;
}

export interface AssembledPrompt {
  /** The agent's system prompt, trimmed, then {@link CITATION_RULES}. */
  system: string;
  /** Kept history (oldest first) then the user message; for `streamText({ system, messages })`. */
  messages: ModelMessage[];
  /** Tokens of the context block as sent. */
  contextTokens: number;
  /** Tokens of the history text kept. */
  historyTokens: number;
  /** How many passages made it into the context. */
  passagesUsed: number;
  /** Indexes into `passages` of those sent, in label order: label `[n]` is `passages[passageIndexes[n - 1]]`. */
  passageIndexes: number[];
}

const PLACEHOLDER = /\{(query|context)\}/g;

/**
 * How a model is asked to cite, since an answer's sources are read back from its text (answer-citations.ts):
 * by the passages' numbers, with no list of its own, and nothing when the passages do not answer, saying so
 * with the built-in model's sentence, so that an answer with no sources is told from one that forgot to cite.
 */
export const CITATION_RULES =
  'Cite each passage of the knowledge base you use by its number in brackets, e.g. [1] or [2][3]; do not write a list of sources. ' +
  `If the passages do not answer the question, say exactly "${NOT_FOUND_ANSWER}" and cite nothing.`;

/**
 * The messages of one model call answering POST /agents/{id}/query. Pure: same input, same output.
 *
 * - The template's `{query}` and `{context}` are replaced in one pass, every occurrence, so a query that
 *   itself contains `{context}` stays literal. A template without `{query}` gets the query appended.
 * - The retrieved context is always sent. Without `{context}` in the template the context block is put in
 *   front of the user message, not in the system message: the system prompt and the history then form a
 *   prefix that is the same on every turn (provider prompt caches hit), and retrieved text keeps user-level
 *   authority rather than instruction-level.
 * - History keeps the most recent messages that fit `historyTokens`, stopping at the first that does not
 *   (no gaps in the conversation).
 * - Passages go in best first while the block fits `contextTokens`; one that does not fit is skipped and
 *   smaller later ones may still go in. The block's frame (header, markers) is always sent, so a budget
 *   smaller than the frame yields an empty block slightly over budget.
 * - The system message is the agent's system prompt followed by {@link CITATION_RULES}: rules for every
 *   answer, at the level of instructions, the same on every turn.
 * - The final user message carries `providerOptions.parley.query`, the bare query (see context-block.ts).
 */
export function assemblePrompt(input: PromptInput): AssembledPrompt {
  const query = neutralizeMarkers(input.query);
  const context = selectPassages(input.passages, input.budgets.contextTokens);
  const history = selectHistory(withoutCurrentQuery(input.history, input.query), input.budgets.historyTokens);

  const template = input.userPromptTemplate?.trim() ? input.userPromptTemplate : DEFAULT_USER_PROMPT_TEMPLATE;
  let user = template.replace(PLACEHOLDER, (_, name: string) => (name === 'query' ? query : context.block));
  if (!template.includes('{query}')) user = `${user}\n\n${query}`;
  if (!template.includes('{context}')) user = `${context.block}\n\n${user}`;

  const messages: ModelMessage[] = history.messages.map((message): ModelMessage =>
    message.from === 'agent' ? { role: 'assistant', content: message.text } : { role: 'user', content: neutralizeMarkers(message.text) },
  );
  messages.push({ role: 'user', content: user, providerOptions: { [PARLEY_PROVIDER_KEY]: { query: input.query } } });

  return {
    system: [input.systemPrompt?.trim(), CITATION_RULES].filter(Boolean).join('\n\n'),
    messages,
    contextTokens: context.tokens,
    historyTokens: history.tokens,
    passagesUsed: context.indexes.length,
    passageIndexes: context.indexes,
  };
}

function withoutCurrentQuery(history: readonly HistoryMessage[], query: string): readonly HistoryMessage[] {
  const last = history.at(-1);
  return last && last.from !== 'agent' && last.text.trim() === query.trim() ? history.slice(0, -1) : history;
}

function selectHistory(history: readonly HistoryMessage[], budget: number) {
  const kept: HistoryMessage[] = [];
  let tokens = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i];
    if (!message || message.text.trim() === '') continue;
    const cost = countTokens(message.text);
    if (tokens + cost > budget) break;
    kept.push(message);
    tokens += cost;
  }
  return { messages: kept.reverse(), tokens };
}

function selectPassages(passages: readonly PromptPassage[], budget: number) {
  const chosen: number[] = [];
  const block = (indexes: readonly number[]) => formatContextBlock(indexes.map((i) => passages[i] as PromptPassage));
  // Token counts are nearly additive over the "\n\n" joins: the estimate picks, the exact count confirms.
  let estimate = countTokens(block([]));
  passages.forEach((passage, index) => {
    if (passage.text.trim() === '') return;
    const cost = countTokens(`${formatPassage(chosen.length + 1, passage)}\n\n`);
    if (estimate + cost > budget) return;
    chosen.push(index);
    estimate += cost;
  });
  let text = block(chosen);
  let tokens = countTokens(text);
  while (chosen.length > 0 && tokens > budget) {
    chosen.pop();
    text = block(chosen);
    tokens = countTokens(text);
  }
  return { block: text, tokens, indexes: chosen };
}
