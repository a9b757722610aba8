import type { LanguageModelV3 } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { countTokens } from '../../text/count-tokens.js';
import type { AssembledPrompt } from '../prompt/assemble-prompt.js';

/** Sampling settings of one answer; absent means the model's default. */
export interface AnswerSettings {
  temperature?: number;
  topP?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  maxTokens?: number;
}

export interface AnswerUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** The answer so far when the model finished, failed or the caller went away. */
export interface FinishedAnswer {
  text: string;
  usage: AnswerUsage;
  /** `aborted`: the caller's signal fired; the text is what arrived before. */
  finish: 'complete' | 'aborted';
}

/**
 * Runs the model on an assembled prompt, handing each text delta to `onDelta` as it arrives. Provider
 * errors reject; an abort resolves with the partial answer so it can still be stored.
 */
export async function streamAnswer(
  model: LanguageModelV3,
  prompt: AssembledPrompt,
  settings: AnswerSettings,
  { signal, onDelta }: { signal: AbortSignal; onDelta: (delta: string) => void },
): Promise<FinishedAnswer> {
  let failure: unknown;
  const result = streamText({
    model,
    system: prompt.system || undefined,
    messages: prompt.messages,
    temperature: settings.temperature,
    topP: settings.topP,
    presencePenalty: settings.presencePenalty,
    frequencyPenalty: settings.frequencyPenalty,
    maxOutputTokens: settings.maxTokens,
    maxRetries: 1,
    abortSignal: signal,
    onError: ({ error }) => {
      failure = error;
    },
  });
  let text = '';
  try {
    for await (const delta of result.textStream) {
      text += delta;
      onDelta(delta);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  if (signal.aborted) return { text, usage: estimateUsage(prompt, text), finish: 'aborted' };
  if (failure !== undefined) throw failure;
  const usage = await result.usage;
  return {
    text,
    finish: 'complete',
    usage: {
      promptTokens: usage.inputTokens ?? 0,
      completionTokens: usage.outputTokens ?? 0,
      totalTokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    },
  };
}

/** An aborted stream reports no usage; what was sent and received is still worth recording. */
function estimateUsage(prompt: AssembledPrompt, text: string): AnswerUsage {
  const promptTokens = prompt.contextTokens + prompt.historyTokens;
  const completionTokens = countTokens(text);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
