/**
 * Turns text into vectors. Implementations: the built-in local model (offline, the default) and any
 * OpenAI-compatible embeddings endpoint.
 */
export interface Embedder {
  /** Identifies model and version; stored per datastore, a change means re-embedding. */
  readonly modelId: string;
  readonly dimensions: number;
  /**
   * Tokens of a text the model reads; it ignores the rest. Ingestion embeds a chunk longer than this as
   * overlapping windows (see src/rag/ingest/vector-windows.ts), so no part of it goes unread.
   */
  readonly maxInputTokens: number;
  /** One unit-length vector per text, in order. Batches internally as the model needs. */
  embedDocuments(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /** A search query; latency matters more than throughput here. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
  /** Loads what the first call needs, so that call is as fast as the next ones. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}
