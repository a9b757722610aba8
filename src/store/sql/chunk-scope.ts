import type { ExpressionBuilder, Kysely } from 'kysely';
import { isKeywordStopWord } from '../../text/stop-words.js';
import type { Database } from '../schema.js';
import type { ChunkDetails, DatasourceStatus, DatasourceType, SearchScope } from '../store.js';

type ChunkAndDatasource = ExpressionBuilder<Database, 'chunk' | 'datasource'>;

/**
 * Datasources whose chunks search reads. One being re-indexed (a re-sync, a re-embedding) keeps its last
 * index until the new one replaces it in one transaction; a new one has no chunks until then.
 */
export const SEARCHABLE_STATUSES: readonly DatasourceStatus[] = ['synched', 'pending', 'running'];

/** The WHERE clause of every search: the workspace's searchable datasources in scope, narrowed by the filters. */
export function inScope(eb: ChunkAndDatasource, scope: SearchScope) {
  const conditions = [
    eb('chunk.workspace_id', '=', scope.workspaceId),
    eb('chunk.datastore_id', 'in', [...scope.datastoreIds]),
    eb('datasource.status', 'in', [...SEARCHABLE_STATUSES]),
  ];
  if (scope.datasourceIds !== undefined) conditions.push(eb('chunk.datasource_id', 'in', [...scope.datasourceIds]));
  if (scope.customIds !== undefined) conditions.push(eb('datasource.custom_id', 'in', [...scope.customIds]));
  return eb.and(conditions);
}

/** A scope with an empty filter list or no datastore matches nothing (and `IN ()` is not valid SQL). */
export const isEmptyScope = (scope: SearchScope): boolean =>
  scope.datastoreIds.length === 0 || scope.datasourceIds?.length === 0 || scope.customIds?.length === 0;

/** A word, or the words of a hyphenated compound ("sars-cov-2" → sars, cov, 2), which match as a phrase. */
export type KeywordTerm = readonly string[];

/**
 * The terms of a query for keyword search: letters and digits of any script, lower case, without common
 * English function words, at most 32. Both engines split "covid-19" into "covid" and "19"; kept together
 * as a phrase, the compound does not also match every text with a "19" in it. Both engines then stem the
 * words their own way.
 */
export function keywordTerms(query: string): KeywordTerm[] {
  const compounds = query.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
  const terms = new Map<string, KeywordTerm>();
  for (const compound of compounds) {
    const words = compound.split('-');
    const kept = words.length > 1 ? words : words.filter((word) => !isKeywordStopWord(word) && (word.length > 1 || /\p{N}/u.test(word)));
    if (kept.length > 0) terms.set(kept.join(' '), kept);
  }
  return [...terms.values()].slice(0, 32);
}

/** Texts and origins of chunks, in the order asked. */
export async function chunkDetails(db: Kysely<Database>, workspaceId: string, chunkIds: readonly string[]): Promise<ChunkDetails[]> {
  if (chunkIds.length === 0) return [];
  const rows = await db
    .selectFrom('chunk')
    .innerJoin('datasource', 'datasource.id', 'chunk.datasource_id')
    .select([
      'chunk.id as chunkId',
      'chunk.text',
      'chunk.source',
      'chunk.page_number as pageNumber',
      'chunk.datasource_id as datasourceId',
      'datasource.name as datasourceName',
      'datasource.type as datasourceType',
      'datasource.custom_id as customId',
      'datasource.mime_type as mimeType',
      'datasource.total_pages as totalPages',
      'datasource.config as config',
    ])
    .where('chunk.workspace_id', '=', workspaceId)
    .where('chunk.id', 'in', [...chunkIds])
    .execute();
  const byId = new Map(
    rows.map((row) => {
      const config = JSON.parse(row.config) as Record<string, unknown>;
      const details: ChunkDetails = {
        chunkId: row.chunkId,
        text: row.text,
        source: row.source,
        pageNumber: row.pageNumber,
        datasourceId: row.datasourceId,
        datasourceName: row.datasourceName,
        datasourceType: row.datasourceType as DatasourceType,
        customId: row.customId,
        mimeType: row.mimeType,
        totalPages: row.totalPages,
        sourceUrl: typeof config.source_url === 'string' ? config.source_url : null,
      };
      return [row.chunkId, details];
    }),
  );
  return chunkIds.flatMap((id) => byId.get(id) ?? []);
}
