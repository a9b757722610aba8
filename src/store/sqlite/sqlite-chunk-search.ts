import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { SEARCHABLE_STATUSES, chunkDetails, inScope, isEmptyScope, keywordTerms } from '../sql/chunk-scope.js';
import type { ChunkDetails, ChunkHit, ChunkSearch, SearchScope } from '../ports/chunk-search.js';
import { bestWindowPerChunk, WINDOWS_PER_CHUNK } from '../sql/best-window.js';
import { HnswDatastoreIndex } from './hnsw-datastore-index.js';
import { decodeStoredVector } from './stored-vector.js';

/**
 * Below this many candidate chunks a filtered search is exact: cheap, and HNSW with a very selective
 * filter can miss hits that exist.
 */
const EXACT_SEARCH_MAX = 4000;

/** Search in the embedded store: an HNSW index per datastore for vectors, FTS5 with BM25 for keywords. */
export class SqliteChunkSearch implements ChunkSearch {
  readonly #indexes = new Map<string, Promise<HnswDatastoreIndex>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly indexDirectory: string,
  ) {}

  async vectorSearch(scope: SearchScope, pendingVector: Float32Array | Promise<Float32Array>, limit: number): Promise<ChunkHit[]> {
    if (isEmptyScope(scope)) {
      await pendingVector; // not left to fail unhandled
      return [];
    }
    const [vector, datasources] = await Promise.all([
      pendingVector,
      this.db
        .selectFrom('datasource')
        .select(['id', 'datastore_id'])
        .where('workspace_id', '=', scope.workspaceId)
        .where('datastore_id', 'in', [...scope.datastoreIds])
        .where('status', 'in', [...SEARCHABLE_STATUSES])
        .$if(scope.datasourceIds !== undefined, (q) => q.where('id', 'in', [...scope.datasourceIds!]))
        .$if(scope.customIds !== undefined, (q) => q.where('custom_id', 'in', [...scope.customIds!]))
        .execute(),
    ]);
    const hits: ChunkHit[] = [];
    for (const datastoreId of new Set(datasources.map((datasource) => datasource.datastore_id))) {
      const index = await this.indexOf(datastoreId, vector.length);
      if (index === undefined) continue;
      const allowed = new Set(datasources.filter((d) => d.datastore_id === datastoreId).map((d) => d.id));
      const candidates = [...allowed].reduce((total, id) => total + index.labelsOfDatasource(id).size, 0);
      const filtered = candidates < index.size;
      // Unfiltered, the graph answers best; narrowed to few candidates, scoring them all is exact and cheap.
      const narrowed = filtered && (candidates <= EXACT_SEARCH_MAX || candidates < index.size / 20);
      hits.push(
        ...(narrowed
          ? await this.exactSearch(vector, [...allowed], limit)
          : bestWindowPerChunk(
              await this.toChunkIds(index.search(vector, limit * WINDOWS_PER_CHUNK, filtered ? (id) => allowed.has(id) : undefined)),
              limit,
            )),
      );
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  async keywordSearch(scope: SearchScope, query: string, limit: number): Promise<ChunkHit[]> {
    const terms = keywordTerms(query);
    if (terms.length === 0 || isEmptyScope(scope)) return [];
    // Each term quoted (several words in quotes are a phrase): FTS5 operators in the user's text are inert.
    const match = terms.map((words) => `"${words.join(' ')}"`).join(' OR ');
    const rows = await this.db
      .selectFrom(sql<{ rowid: number }>`chunk_fts`.as('chunk_fts'))
      .innerJoin('chunk', (join) => join.on(sql<boolean>`chunk.rowid = chunk_fts.rowid`))
      .innerJoin('datasource', 'datasource.id', 'chunk.datasource_id')
      .select(['chunk.id as chunkId', sql<number>`bm25(chunk_fts)`.as('rank')])
      .where(sql<boolean>`chunk_fts MATCH ${match}`)
      .where((eb) => inScope(eb, scope))
      .orderBy('rank')
      .limit(limit)
      .execute();
    // bm25() is lower-is-better (negative); flip it so every engine's score grows with relevance.
    return rows.map((row) => ({ chunkId: row.chunkId, score: -row.rank }));
  }

  details(workspaceId: string, chunkIds: readonly string[]): Promise<ChunkDetails[]> {
    return chunkDetails(this.db, workspaceId, chunkIds);
  }

  async warmUp(maxDatastores: number): Promise<void> {
    const datastores = await this.db
      .selectFrom('datastore')
      .select(['id', 'embedding_dimensions as dimensions'])
      .where('embedding_dimensions', 'is not', null)
      .orderBy('updated_at', 'desc')
      .limit(maxDatastores)
      .execute();
    for (const { id, dimensions } of datastores) await this.indexOf(id, dimensions!);
  }

  async close(): Promise<void> {
    for (const index of this.#indexes.values()) await (await index).close();
  }

  /** The datastore's index, opened once and brought up to date before each search. */
  private async indexOf(datastoreId: string, dimensions: number): Promise<HnswDatastoreIndex | undefined> {
    let opening = this.#indexes.get(datastoreId);
    const current = opening && (await opening);
    if (current === undefined || current.dimensions !== dimensions) {
      opening = HnswDatastoreIndex.open(this.db, datastoreId, dimensions, this.indexDirectory);
      this.#indexes.set(datastoreId, opening);
      opening.catch(() => this.#indexes.delete(datastoreId));
    }
    const index = await opening!;
    await index.catchUp(this.db);
    return index;
  }

  /**
   * Every vector of the datasources scored against the query, read as stored: a blob viewed as floats
   * costs far less than copying each point out of the HNSW index into a JS array.
   */
  private async exactSearch(vector: Float32Array, datasourceIds: string[], limit: number): Promise<ChunkHit[]> {
    const rows = await this.db
      .selectFrom('chunk_vector')
      .select(['chunk_id', 'embedding'])
      .where('datasource_id', 'in', datasourceIds)
      .where('dimensions', '=', vector.length)
      .execute();
    const hits = rows.map(({ chunk_id, embedding }) => {
      const stored = decodeStoredVector(embedding);
      let dot = 0;
      for (let i = 0; i < stored.length; i += 1) dot += stored[i]! * vector[i]!;
      return { chunkId: chunk_id, score: dot };
    });
    return bestWindowPerChunk(hits, limit);
  }

  /** The chunks of the vectors found (labels are `chunk_vector` ids), in the order found. */
  private async toChunkIds(found: { label: number; score: number }[]): Promise<ChunkHit[]> {
    if (found.length === 0) return [];
    const rows = await this.db
      .selectFrom('chunk_vector')
      .select(['id as label', 'chunk_id as id'])
      .where(
        'id',
        'in',
        found.map((hit) => hit.label),
      )
      .execute();
    const idOf = new Map(rows.map((row) => [row.label, row.id]));
    return found.flatMap((hit) => {
      const chunkId = idOf.get(hit.label);
      return chunkId === undefined ? [] : [{ chunkId, score: hit.score }];
    });
  }
}
