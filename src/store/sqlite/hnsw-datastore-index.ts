import fs from 'node:fs/promises';
import path from 'node:path';
import hnswlib from 'hnswlib-node';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { decodeStoredVector } from './stored-vector.js';

/** Graph parameters: M=16, efConstruction=200 give recall@10 above 0.95 at 100k chunks (see bench). */
const M = 16;
const EF_CONSTRUCTION = 200;
/** Points added between yields to the event loop while (re)building, so the API keeps answering. */
const YIELD_EVERY = 256;

export interface IndexedHit {
  label: number;
  score: number;
}

interface IndexMeta {
  /** What the labels are: see LABELS. */
  labels_of?: string;
  version: number;
  dimensions: number;
  labels: [label: number, datasourceId: string][];
}

/** Labels are `chunk_vector` ids (window vectors); a saved index of chunk rowids (before them) is rebuilt. */
const LABELS = 'chunk_vector.id';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The approximate-nearest-neighbour index of one datastore's chunk vectors (HNSW, cosine), a point per
 * window of a chunk. The SQLite file stays the source of truth: labels are `chunk_vector` ids (never
 * reused, so a label always means the same vector), and the index catches up with the table
 * whenever the datastore's content_version moves. It is saved beside the database so a restart does not
 * rebuild it.
 */
export class HnswDatastoreIndex {
  #index: hnswlib.HierarchicalNSW;
  #version = -1;
  #datasourceOf = new Map<number, string>();
  #labelsOf = new Map<string, Set<number>>();
  #saving: Promise<void> | undefined;

  private constructor(
    readonly datastoreId: string,
    readonly dimensions: number,
    private readonly file: string,
  ) {
    this.#index = new hnswlib.HierarchicalNSW('cosine', dimensions);
  }

  /** Loads the saved index when it matches the database, else builds it from the chunk table. */
  static async open(db: Kysely<Database>, datastoreId: string, dimensions: number, directory: string): Promise<HnswDatastoreIndex> {
    const index = new HnswDatastoreIndex(datastoreId, dimensions, path.join(directory, `${datastoreId}.hnsw`));
    if (!(await index.load())) index.#index.initIndex({ maxElements: 1024, m: M, efConstruction: EF_CONSTRUCTION, allowReplaceDeleted: true });
    await index.catchUp(db);
    return index;
  }

  get size(): number {
    return this.#datasourceOf.size;
  }

  labelsOfDatasource(datasourceId: string): ReadonlySet<number> {
    return this.#labelsOf.get(datasourceId) ?? new Set();
  }

  /** Brings the index in line with the chunk table if the datastore's content changed since. */
  async catchUp(db: Kysely<Database>): Promise<void> {
    const datastore = await db.selectFrom('datastore').select('content_version').where('id', '=', this.datastoreId).executeTakeFirst();
    if (datastore === undefined || datastore.content_version === this.#version) return;
    const version = datastore.content_version;
    const rows = await db
      .selectFrom('chunk_vector')
      .select(['id as label', 'datasource_id'])
      .where('datastore_id', '=', this.datastoreId)
      .where('dimensions', '=', this.dimensions)
      .execute();
    const wanted = new Map(rows.map((row) => [row.label, row.datasource_id]));
    for (const label of [...this.#datasourceOf.keys()]) {
      if (!wanted.has(label)) this.remove(label);
    }
    const missing = rows.filter((row) => !this.#datasourceOf.has(row.label));
    await this.add(db, missing);
    this.#version = version;
    this.scheduleSave();
  }

  /**
   * The `limit` nearest vectors among those whose datasource `accept` lets through; without `accept`,
   * among all. Labels the index holds but the table no longer does (an interrupted save) are never
   * returned.
   */
  search(query: Float32Array, limit: number, accept?: (datasourceId: string) => boolean): IndexedHit[] {
    const k = Math.min(limit, this.size);
    if (k === 0) return [];
    this.#index.setEf(Math.max(64, k * 2));
    const point = Array.from(query);
    if (accept === undefined) {
      // The graph walk calls a filter for every point it visits (~0.2 ms a search, measured): search
      // without one, and only when a stale label took a place, again with the filter.
      const hits = this.#hits(this.#index.searchKnn(point, k));
      if (hits.every((hit) => this.#datasourceOf.has(hit.label))) return hits;
    }
    return this.#hits(
      this.#index.searchKnn(point, k, (label) => {
        const datasourceId = this.#datasourceOf.get(label);
        return datasourceId !== undefined && (accept === undefined || accept(datasourceId));
      }),
    );
  }

  #hits(result: hnswlib.SearchResult): IndexedHit[] {
    return result.neighbors.map((label, i) => ({ label, score: 1 - result.distances[i]! }));
  }

  async close(): Promise<void> {
    await this.#saving;
  }

  private async add(db: Kysely<Database>, rows: { label: number; datasource_id: string }[]): Promise<void> {
    const needed = this.#index.getCurrentCount() + rows.length;
    if (needed > this.#index.getMaxElements()) this.#index.resizeIndex(Math.max(needed, Math.ceil(this.#index.getMaxElements() * 1.5)));
    for (let start = 0; start < rows.length; start += YIELD_EVERY) {
      const batch = rows.slice(start, start + YIELD_EVERY);
      const vectors = await db
        .selectFrom('chunk_vector')
        .select(['id as label', 'embedding'])
        .where(
          'id',
          'in',
          batch.map((row) => row.label),
        )
        .execute();
      const datasourceOf = new Map(batch.map((row) => [row.label, row.datasource_id]));
      for (const { label, embedding } of vectors) {
        this.#index.addPoint(Array.from(decodeStoredVector(embedding)), label, true);
        this.track(label, datasourceOf.get(label)!);
      }
      await yieldToEventLoop();
    }
  }

  private track(label: number, datasourceId: string): void {
    this.#datasourceOf.set(label, datasourceId);
    let labels = this.#labelsOf.get(datasourceId);
    if (labels === undefined) this.#labelsOf.set(datasourceId, (labels = new Set()));
    labels.add(label);
  }

  private remove(label: number): void {
    const datasourceId = this.#datasourceOf.get(label);
    try {
      this.#index.markDelete(label);
    } catch {
      // Already gone from the graph (a saved index older than its label list): nothing to undo.
    }
    this.#datasourceOf.delete(label);
    if (datasourceId === undefined) return;
    const labels = this.#labelsOf.get(datasourceId);
    labels?.delete(label);
    if (labels?.size === 0) this.#labelsOf.delete(datasourceId);
  }

  private async load(): Promise<boolean> {
    try {
      const meta = JSON.parse(await fs.readFile(`${this.file}.json`, 'utf8')) as IndexMeta;
      if (meta.labels_of !== LABELS || meta.dimensions !== this.dimensions) return false;
      await this.#index.readIndex(this.file, true);
      for (const [label, datasourceId] of meta.labels) this.track(label, datasourceId);
      this.#version = meta.version;
      return true;
    } catch {
      // Missing or unreadable: it is only a cache of the chunk table, so build it again.
      this.#index = new hnswlib.HierarchicalNSW('cosine', this.dimensions);
      this.#datasourceOf.clear();
      this.#labelsOf.clear();
      return false;
    }
  }

  /** Saves in the background, one save at a time; a crash mid-save leaves a file the next start rejects. */
  private scheduleSave(): void {
    if (this.#saving !== undefined) return;
    this.#saving = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const meta: IndexMeta = { labels_of: LABELS, version: this.#version, dimensions: this.dimensions, labels: [...this.#datasourceOf] };
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      await this.#index.writeIndex(`${this.file}.tmp`);
      await fs.writeFile(`${this.file}.json.tmp`, JSON.stringify(meta));
      // Meta last: a half-written pair fails the version or parse check on load.
      await fs.rename(`${this.file}.tmp`, this.file);
      await fs.rename(`${this.file}.json.tmp`, `${this.file}.json`);
    })()
      .catch(() => undefined)
      .finally(() => {
        this.#saving = undefined;
      });
  }
}
