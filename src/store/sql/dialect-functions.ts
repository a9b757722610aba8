import { sql, type Expression, type RawBuilder } from 'kysely';
import type { StoreCapabilities } from '../ports/store-capabilities.js';

/**
 * The few SQL functions the dialects spell differently, for the shared SQL code: one spelling per dialect,
 * chosen here from the adapter's `dialect` so no query tests it itself.
 */
export interface DialectFunctions {
  /** Seconds from `start` to `end`, two ISO 8601 UTC text columns, with their milliseconds, as a double. */
  secondsBetween(start: Expression<string | null>, end: Expression<string | null>): RawBuilder<number | null>;
  /**
   * A from-item (to cross join, beside the row holding `json`) with one row per element of the JSON array
   * held as text in `json`; each element's JSON is in the column `value`, read with `->>`.
   */
  jsonArrayElements(json: Expression<string>): RawBuilder<{ value: string }>;
}

const SQLITE: DialectFunctions = {
  // unixepoch(…, 'subsec') keeps the milliseconds exactly, where julianday() would blur them.
  secondsBetween: (start, end) => sql<number | null>`(unixepoch(${end}, 'subsec') - unixepoch(${start}, 'subsec'))`,
  jsonArrayElements: (json) => sql<{ value: string }>`json_each(${json})`,
};

const POSTGRES: DialectFunctions = {
  // extract(epoch …) is numeric, which the driver would return as text.
  secondsBetween: (start, end) => sql<number | null>`extract(epoch from (${end}::timestamptz - ${start}::timestamptz))::float8`,
  jsonArrayElements: (json) => sql<{ value: string }>`jsonb_array_elements(${json}::jsonb)`,
};

export const dialectFunctions = (capabilities: StoreCapabilities): DialectFunctions => (capabilities.dialect === 'sqlite' ? SQLITE : POSTGRES);
