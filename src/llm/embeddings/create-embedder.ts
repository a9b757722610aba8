import type { Embedder } from './embedder.js';
import { LocalEmbedder } from './local-embedder.js';
import { OpenAICompatibleEmbedder } from './openai-compatible-embedder.js';
import { measured } from './measured-embedder.js';

/** What the configuration says about embeddings; `null` and `undefined` both mean "not set". */
export interface EmbedderOptions {
  /** An OpenAI-compatible API root (`…/v1`); unset means the built-in local model. */
  url?: string | null;
  /** Required with `url`. */
  model?: string | null;
  apiKey?: string | null;
  /** Remote only: the vector length, to skip learning it from the first response. */
  dimensions?: number | null;
  /** Remote only: tokens of one input the model reads (default 8,192). */
  maxInputTokens?: number | null;
  /** Local only: worker threads (default one per core). */
  threads?: number | null;
  /** Remote only: how the endpoint is reached; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/**
 * The remote embedder when a URL is configured, else the built-in local one (which ignores `model` and
 * `apiKey`). Nothing starts here: the local model's threads start on first use. Calls are measured.
 */
export function createEmbedder(options: EmbedderOptions = {}): Embedder {
  if (options.url) {
    if (!options.model) throw new Error('An embeddings model name is required with an embeddings URL');
    return measured(
      new OpenAICompatibleEmbedder({
        baseURL: options.url,
        model: options.model,
        apiKey: options.apiKey ?? undefined,
        dimensions: options.dimensions ?? undefined,
        maxInputTokens: options.maxInputTokens ?? undefined,
        fetch: options.fetch,
      }),
    );
  }
  const local = new LocalEmbedder({ threads: options.threads ?? undefined });
  if (options.dimensions && options.dimensions !== local.dimensions) {
    throw new Error(`The built-in embedding model has ${local.dimensions} dimensions, not ${options.dimensions}`);
  }
  return measured(local);
}
