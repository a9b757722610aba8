import type { LanguageModelV3 } from '@ai-sdk/provider';
import { streamText } from 'ai';
import { countTokens } from '../../text/count-tokens.js';
import { ModelError, toModelError } from '../model-error.js';
import type { AssembledPrompt } from '../prompt/assemble-prompt.js';
import { modelDuration, modelTokens } from '../../observability/instruments.js';

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

export interface StreamOptions {
  /** The caller went away: the answer stops and resolves with what arrived. */
  signal: AbortSignal;
  onDelta: (delta: string) => void;
  /** How long the provider may stay silent, before its first delta or between two, before the call fails. */
  timeoutMs: number;
  /** The provider's API key, cut from its error text before that is logged. */
  secret?: string;
}

const SUBJECT = 'The model provider';

/**
 * Runs the model on an assembled prompt, handing each text delta to `onDelta` as it arrives. Provider
 * failures reject with a {@link ModelError}; an abort resolves with the partial answer so it can still be
 * stored. Its time and tokens go to the metrics.
 */
export async function streamAnswer(
  model: LanguageModelV3,
  prompt: AssembledPrompt,
  settings: AnswerSettings,
  options: StreamOptions,
): Promise<FinishedAnswer> {
  const labels = { model: model.modelId };
  const done = modelDuration.startTimer(labels);
  try {
    const answer = await runModel(model, prompt, settings, options);
    done({ outcome: answer.finish });
    modelTokens.inc({ ...labels, direction: 'prompt' }, answer.usage.promptTokens);
    modelTokens.inc({ ...labels, direction: 'completion' }, answer.usage.completionTokens);
    return answer;
  } catch (error) {
    done({ outcome: 'error' });
    throw error;
  }
}

async function runModel(
  model: LanguageModelV3,
  prompt: AssembledPrompt,
  settings: AnswerSettings,
  { signal, onDelta, timeoutMs, secret }: StreamOptions,
): Promise<FinishedAnswer> {
  // Our own timer rather than the SDK's `timeout.chunkMs`, which starts only once a response has arrived:
  // a provider that accepts the connection and never answers must fail too.
  const silence = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const restartTimer = () => {
    clearTimeout(timer);
    timer = setTimeout(() => silence.abort(new DOMException(`silent for ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  };
  let failure: unknown;
  restartTimer();
  const result = streamText({
    model,
    system: prompt.system || undefined,
    messages: prompt.messages,
    temperature: settings.temperature,
    topP: settings.topP,
    presencePenalty: settings.presencePenalty,
    frequencyPenalty: settings.frequencyPenalty,
    maxOutputTokens: settings.maxTokens,
    // A person is waiting: a failure is reported at once, with whether and when to try again, rather than
    // retried here (the SDK would wait out a provider's Retry-After of up to a minute).
    maxRetries: 0,
    abortSignal: AbortSignal.any([signal, silence.signal]),
    onError: ({ error }) => {
      failure = error;
    },
  });
  let text = '';
  try {
    for await (const delta of result.textStream) {
      restartTimer();
      text += delta;
      onDelta(delta);
    }
  } catch (error) {
    failure ??= error;
  } finally {
    clearTimeout(timer);
  }
  if (signal.aborted) return { text, usage: estimateUsage(prompt, text), finish: 'aborted' };
  if (silence.signal.aborted) throw toModelError(silence.signal.reason, { subject: SUBJECT, secret });
  if (failure !== undefined) throw toModelError(failure, { subject: SUBJECT, secret });
  if ((await result.finishReason) === 'content-filter') {
    throw new ModelError('refused', `${SUBJECT} stopped the answer with its content filter`, undefined, 'finish reason content-filter');
  }
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
