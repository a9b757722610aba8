import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { chunkDetails, inScope, isEmptyScope, keywordTerms } from '../sql/chunk-scope.js';
import { bestWindowPerChunk, WINDOWS_PER_CHUNK } from '../sql/best-window.js';
import type { ChunkDetails, ChunkHit, ChunkSearch, SearchScope } from '../ports/chunk-search.js';

/** pgvector HNSW indexes need a fixed dimension: one partial index per dimension in use. */
export async function ensureVectorIndex(db: Kysely<Database>, dimensions: number): Promise<void> {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2000) {
    throw new Error(`pgvector indexes vectors of 1 to 2000 dimensions, not ${dimensions}`);
  }
  const name = `chunk_vector_hnsw_${dimensions}`;
  await db.transaction().execute(async (trx) => {
    // Two processes creating it at once collide in the catalogue ("duplicate key … pg_class_relname_nsp_index",
    // IF NOT EXISTS notwithstanding), failing an ingestion attempt: one at a time, the second then finds it.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
    await sql
      .raw(`CREATE INDEX IF NOT EXISTS ${name} ON chunk_vector USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE dimensions = ${dimensions}`)
      .execute(trx);
  });
}

/** Search with PostgreSQL's own indexes: pgvector HNSW for vectors, tsvector + GIN for keywords. */
export class PostgresChunkSearch implements ChunkSearch {
  constructor(private readonly db: Kysely<Database>) {}

  async vectorSearch(scope: SearchScope, pendingVector: Float32Array | Promise<Float32Array>, limit: number): Promise<ChunkHit[]> {
    // The scope is checked in the same statement as the search: nothing to look up while the vector comes.
    const vector = await pendingVector;
    if (isEmptyScope(scope)) return [];
    const dimensions = vector.length;
    const literal = `[${vector.join(',')}]`;
    // The cast matches the partial index's expression, so the planner can use it.
    const distance = sql<number>`(chunk_vector.embedding::vector(${sql.raw(String(dimensions))}) <=> ${literal}::vector(${sql.raw(String(dimensions))}))`;
    const windows = limit * WINDOWS_PER_CHUNK;
    const rows = await this.db.transaction().execute(async (trx) => {
      // Filters are applied inside the index scan: it keeps walking the graph until enough rows pass.
      // Both settings in one statement, local to the transaction: one round trip.
      await sql`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', ${String(Math.max(100, windows))}, true)`.execute(trx);
      return trx
        .selectFrom('chunk_vector')
        .innerJoin('chunk', 'chunk.id', 'chunk_vector.chunk_id')
        .innerJoin('datasource', 'datasource.id', 'chunk.datasource_id')
        .select(['chunk.id as chunkId', distance.as('distance')])
        .where((eb) => inScope(eb, scope))
        .where('chunk_vector.dimensions', '=', dimensions)
        .orderBy(distance)
        .limit(windows)
        .execute();
    });
    return bestWindowPerChunk(rows.map((row) => ({ chunkId: row.chunkId, score: 1 - Number(row.distance) })), limit);
  }

  /**
   * BM25-like: each query term's `ts_rank` (term frequency, saturating, over log document length) weighted
   * by the term's inverse document frequency among the datastores' chunks. `ts_rank` alone has no IDF, so
   * a common word counted as much as a rare one (MRR@10 0.58 against SQLite's bm25 0.80 on the bundled
   * evaluation). One statement: the frequencies are window counts over the matching rows, so each row's
   * tsvector is read once.
   */
  async keywordSearch(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]> {
    const terms = keywordTerms(query);
    if (terms.length === 0 || isEmptyScope(scope)) return [];
    // A compound goes through the parser that indexed the text, which reads "covid-19" as covid, -19.
    const tsqueries = terms.map((words) => sql`phraseto_tsquery('english', ${words.join('-')})`);
    const any = sql`(${sql.join(tsqueries, sql` || `)})`;
    const total = sql`(SELECT count(*) FROM chunk WHERE datastore_id IN (${sql.join([...scope.datastoreIds])}))`;
    const matches = this.db
      .selectFrom('chunk')
      .innerJoin('datasource', 'datasource.id', 'chunk.datasource_id')
      .where((eb) => inScope(eb, scope))
      .where(sql<boolean>`chunk.text_search @@ ${any}`)
      .select([
        'chunk.id',
        sql<number>`${total}`.as('n'),
        ...tsqueries.flatMap((tsquery, i) => [
          sql<number>`ts_rank(chunk.text_search, ${tsquery}, 1)`.as(`r${i}`),
          sql<number>`count(*) FILTER (WHERE chunk.text_search @@ ${tsquery}) OVER ()`.as(`d${i}`),
        ]),
      ])
      .as('m');
    const score = sql<number>`(${sql.join(
      tsqueries.map((_, i) => {
        const frequency = sql.ref(`m.d${i}`);
        return sql`ln(1 + (m.n - ${frequency} + 0.5) / (${frequency} + 0.5)) * ${sql.ref(`m.r${i}`)}`;
      }),
      sql` + `,
    )})`;
    const rows = await this.db
      .selectFrom(matches)
      .select(['m.id as chunkId', score.as('score')])
      .orderBy(score, 'desc')
      .orderBy('m.id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ chunkId: row.chunkId, score: Number(row.score) }));
  }

  details(workspaceId: string, chunkIds: readonly string[]): Promise<ChunkDetails[]> {
    return chunkDetails(this.db, workspaceId, chunkIds);
  }
}
