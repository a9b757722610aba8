import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, wrapEmbeddingModel } from 'ai';
import { isJsonObject } from '../../text/json-object.js';
import { ModelError, toModelError } from '../model-error.js';
import type { Embedder } from './embedder.js';
import { toUnitVector } from './unit-vector.js';

export interface OpenAICompatibleEmbedderOptions {
  /** The API root that `/embeddings` is appended to, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …`; never appears in error messages. */
  apiKey?: string;
  /** Vector length; when omitted it is learnt from the first response (see {@link OpenAICompatibleEmbedder.resolveDimensions}). */
  dimensions?: number;
  /**
   * Ask the server for `dimensions`-long vectors (the `dimensions` request field; OpenAI text-embedding-3
   * supports it, many servers reject it). Default false: `dimensions` only states what the model returns.
   */
  requestDimensions?: boolean;
  /** Tokens of one input the model reads; default 8,192 (OpenAI's text-embedding-3 models). */
  maxInputTokens?: number;
  /** Inputs per request. Default 64: well under every server's limits, large enough to amortise the round trip. */
  batchSize?: number;
  /** Requests in flight per call. Default 4. */
  maxParallelCalls?: number;
  /** Retries per request on network errors, 408, 409, 429 and 5xx, with backoff honouring Retry-After. Default 2. */
  maxRetries?: number;
  /** Milliseconds one request may take, answer included, before it fails as unavailable. Default 60,000. */
  timeoutMs?: number;
  /** How the endpoint is reached (Parley's, through its outbound policy); the global fetch otherwise. */
  fetch?: typeof fetch;
}

const SUBJECT = 'The embeddings provider';
const DEFAULT_MAX_INPUT_TOKENS = 8192;

/**
 * Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, vLLM, Ollama, llama.cpp server) through the
 * AI SDK, which batches, runs requests in parallel and retries. Failures are {@link ModelError}s.
 */
export class OpenAICompatibleEmbedder implements Embedder {
  readonly modelId: string;
  readonly maxInputTokens: number;
  readonly #model: ReturnType<typeof wrapEmbeddingModel>;
  readonly #endpoint: string;
  readonly #apiKey: string | undefined;
  readonly #maxParallelCalls: number;
  readonly #maxRetries: number;
  readonly #requestedDimensions: number | undefined;
  #dimensions: number | undefined;

  constructor(options: OpenAICompatibleEmbedderOptions) {
    const url = new URL(options.baseURL);
    // For messages: no credentials or query string.
    this.#endpoint = `${url.origin}${url.pathname.replace(/\/$/, '')}`;
    this.#apiKey = options.apiKey || undefined;
    this.#dimensions = options.dimensions;
    this.#requestedDimensions = options.requestDimensions ? options.dimensions : undefined;
    this.maxInputTokens = options.maxInputTokens ?? DEFAULT_MAX_INPUT_TOKENS;
    this.#maxParallelCalls = options.maxParallelCalls ?? 4;
    this.#maxRetries = options.maxRetries ?? 2;
    const batchSize = options.batchSize ?? 64;
    if (options.requestDimensions && options.dimensions === undefined) {
      throw new RangeError('requestDimensions needs dimensions');
    }
    this.modelId = `openai-compatible:${options.model}${this.#requestedDimensions ? `/${this.#requestedDimensions}` : ''}`;
    const provider = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: options.baseURL,
      apiKey: this.#apiKey,
      fetch: normalisingFetch(options.fetch ?? globalThis.fetch, options.timeoutMs ?? 60_000),
    });
    this.#model = wrapEmbeddingModel({
      model: provider.embeddingModel(options.model),
      middleware: { specificationVersion: 'v3', overrideMaxEmbeddingsPerCall: () => batchSize },
    });
  }

  /** Throws until the length is configured or learnt; call {@link resolveDimensions} to learn it up front. */
  get dimensions(): number {
    if (this.#dimensions === undefined) {
      throw new Error(`The vector length of ${this.modelId} is not known yet: configure it or call resolveDimensions()`);
    }
    return this.#dimensions;
  }

  /** The vector length, embedding a probe string first if it is not known yet. */
  async resolveDimensions(signal?: AbortSignal): Promise<number> {
    if (this.#dimensions === undefined) await this.embedQuery('dimension probe', signal);
    return this.dimensions;
  }

  async embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    let embeddings: number[][];
    try {
      ({ embeddings } = await embedMany({
        model: this.#model,
        // OpenAI rejects empty inputs; a space embeds to the same "nothing" on every server.
        values: texts.map((text) => (text.length === 0 ? ' ' : text)),
        maxParallelCalls: this.#maxParallelCalls,
        maxRetries: this.#maxRetries,
        abortSignal: signal,
        providerOptions: this.#requestedDimensions === undefined ? undefined : { openaiCompatible: { dimensions: this.#requestedDimensions } },
      }));
    } catch (error) {
      throw this.#describe(error, signal);
    }
    if (embeddings.length !== texts.length) {
      throw this.#invalid(`${embeddings.length} vectors came back for ${texts.length} inputs`);
    }
    return embeddings.map((embedding) => this.#toVector(embedding));
  }

  async embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.embedDocuments([text], signal);
    if (!vector) throw this.#invalid('no vector came back');
    return vector;
  }

  async warmUp(): Promise<void> {
    // Nothing to load here: a request made now would only cost the provider a call.
  }

  async close(): Promise<void> {
    // Nothing to release: fetch keeps no per-client state.
  }

  #toVector(embedding: readonly number[]): Float32Array {
    this.#dimensions ??= embedding.length;
    if (embedding.length !== this.#dimensions) {
      throw this.#invalid(`a vector has ${embedding.length} dimensions, expected ${this.#dimensions}`);
    }
    if (!embedding.every(Number.isFinite)) throw this.#invalid('a vector holds a non-finite number');
    return toUnitVector(embedding);
  }

  #invalid(problem: string): ModelError {
    return new ModelError('refused', `${SUBJECT} answered with unusable vectors: ${problem}`, undefined, `${this.#endpoint}: ${problem}`);
  }

  /** Aborts pass through as they are; every other failure is a {@link ModelError} that never holds the key. */
  #describe(error: unknown, signal?: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason;
    return toModelError(error, { subject: SUBJECT, secret: this.#apiKey });
  }
}

/**
 * Gives each request `timeoutMs` (a server that never answers would otherwise hold an ingestion job for
 * good) and rewrites a successful response into what the SDK's parser expects: `data` sorted by `index`
 * (the SDK reads vectors in array order and ignores `index`) and base64 vectors (servers that ignore
 * `encoding_format: 'float'`) decoded to numbers.
 */
function normalisingFetch(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await base(input, { ...init, signal });
    if (!response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    const responseInit = { status: response.status, statusText: response.statusText, headers };
    if (!isJsonObject(body) || !Array.isArray(body.data)) return new Response(text, responseInit); // the SDK reports it
    const items: unknown[] = body.data;
    const data = items.map((item) =>
      isJsonObject(item) && typeof item.embedding === 'string' ? { ...item, embedding: decodeBase64Floats(item.embedding) } : item,
    );
    if (data.every((item) => indexOf(item) !== undefined)) data.sort((a, b) => (indexOf(a) ?? 0) - (indexOf(b) ?? 0));
    return new Response(JSON.stringify({ ...body, data }), responseInit);
  };
}

function indexOf(item: unknown): number | undefined {
  return isJsonObject(item) && typeof item.index === 'number' ? item.index : undefined;
}

/** OpenAI's base64 format: little-endian float32. */
function decodeBase64Floats(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
