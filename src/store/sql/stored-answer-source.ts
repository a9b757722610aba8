import type { AnswerSourceRecord } from '../ports/message-store.js';

/**
 * Each field's name in `message.sources` (JSON): the names answer sources have been stored under since the
 * first answers, so rows of every age read alike. One table for both directions.
 */
const STORED_NAMES = {
  chunkId: 'chunk_id',
  datasourceId: 'datasource_id',
  datasourceName: 'datasource_name',
  datasourceType: 'datasource_type',
  sourceUrl: 'source_url',
  customId: 'custom_id',
  mimeType: 'mime_type',
  pageNumber: 'page_number',
  totalPages: 'total_pages',
  score: 'score',
  text: 'text',
} as const satisfies Record<keyof AnswerSourceRecord, string>;

/** Left out of the stored JSON when null, as they always were; absent, they read back as null. */
const LEFT_OUT_WHEN_NULL: ReadonlySet<keyof AnswerSourceRecord> = new Set(['customId', 'mimeType', 'pageNumber', 'totalPages']);

const FIELDS = Object.keys(STORED_NAMES) as (keyof AnswerSourceRecord)[];

/** A source as stored; SQL that reads a source's field names it by one of these keys. */
export type StoredAnswerSource = Partial<Record<(typeof STORED_NAMES)[keyof AnswerSourceRecord], string | number | null>>;

const toStored = (source: AnswerSourceRecord): StoredAnswerSource =>
  Object.fromEntries(
    FIELDS.flatMap((field) => (source[field] === null && LEFT_OUT_WHEN_NULL.has(field) ? [] : [[STORED_NAMES[field], source[field]]])),
  );

const fromStored = (stored: StoredAnswerSource): AnswerSourceRecord =>
  Object.fromEntries(FIELDS.map((field) => [field, stored[STORED_NAMES[field]] ?? null])) as unknown as AnswerSourceRecord;

/** The `sources` column's text for `sources`. */
export const storedSources = (sources: readonly AnswerSourceRecord[]): string => JSON.stringify(sources.map(toStored));

/** The sources a `sources` column holds. */
export const readSources = (column: string): AnswerSourceRecord[] => (JSON.parse(column) as StoredAnswerSource[]).map(fromStored);
