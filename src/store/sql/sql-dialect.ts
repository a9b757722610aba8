import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { StoreCapabilities } from '../ports/store-capabilities.js';

/** A connected Kysely instance plus what the shared SQL code must know about its dialect. */
export interface SqlConnection {
  readonly db: Kysely<Database>;
  /** The adapter's flags; the shared SQL code reads them here, and only here. */
  readonly capabilities: StoreCapabilities;
  /** How a vector is written into `chunk.embedding`. */
  encodeVector(vector: Float32Array): Uint8Array | string;
  /** Makes sure vectors of this many dimensions are indexed (PostgreSQL: one HNSW index per dimension). */
  prepareVectorIndex?(dimensions: number): Promise<void>;
  /**
   * Listens on a notification channel until the returned function is called: `onNotice` gets each payload,
   * and null after a lost connection was restored (notices may have been missed). The connection carries
   * `name` as its application name, so the server can tell who listens. PostgreSQL only.
   */
  listen?(channel: string, onNotice: (payload: string | null) => void, name?: string): Promise<() => Promise<void>>;
  /** The application names of the connections listening under names that start with `prefix`. PostgreSQL only. */
  listenersNamed?(prefix: string): Promise<string[]>;
  /** SQLite: a number that changes whenever another connection commits (`PRAGMA data_version`). */
  foreignWrites?(): number;
  /** Called after `rows` chunks were written, e.g. to refresh planner statistics after a bulk load. */
  afterChunksWritten?(rows: number): Promise<void>;
}
