import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { StoreCapabilities } from '../store.js';

/** A connected Kysely instance plus what the shared SQL code must know about its dialect. */
export interface SqlConnection {
  readonly db: Kysely<Database>;
  readonly capabilities: StoreCapabilities;
  /** `SELECT … FOR UPDATE` exists; SQLite has none and serialises writers instead. */
  readonly supportsRowLocks: boolean;
}
