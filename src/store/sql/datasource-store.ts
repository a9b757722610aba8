import type { ExpressionBuilder, Kysely, Selectable, Updateable } from 'kysely';
import type { DatasourceTable, Database } from '../schema.js';
import type {
  ChunkRecord,
  DatasourceProgress,
  DatasourceRecord,
  DatasourceStatus,
  DatasourceStore,
  DatasourceType,
  IndexOutcome,
  IndexedContent,
  ReplacedContent,
} from '../ports/datasource-store.js';
import type { NewJob } from '../ports/job-store.js';
import type { NewOutboxEvent } from '../ports/outbox-store.js';
import { insertJob } from './job-store.js';
import { insertOutboxEvent } from './outbox-store.js';
import type { SqlConnection } from './sql-dialect.js';
import { OwnedRecords } from './owned-rows.js';

/** Rows per INSERT: well under SQLite's bound-parameter limit and PostgreSQL's message sizes. */
const INSERT_BATCH = 200;

const toRecord = (row: Selectable<DatasourceTable>): DatasourceRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  datastoreId: row.datastore_id,
  type: row.type as DatasourceType,
  name: row.name,
  status: row.status as DatasourceStatus,
  customId: row.custom_id,
  groupId: row.group_id,
  config: JSON.parse(row.config) as Record<string, unknown>,
  fileKey: row.file_key,
  mimeType: row.mime_type,
  sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
  contentKey: row.content_key,
  error: row.error,
  progress: row.progress,
  nbChunks: row.nb_chunks,
  textSize: row.text_size,
  totalPages: row.total_pages,
  generation: row.generation,
  lastSynch: row.last_synch,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const progressColumns = (progress: DatasourceProgress): Updateable<DatasourceTable> => ({
  name: progress.name,
  status: progress.status,
  progress: progress.progress,
  error: progress.error,
  file_key: progress.fileKey,
  mime_type: progress.mimeType,
  size_bytes: progress.sizeBytes,
});

/** The datasource `id` if it is the workspace's: every statement on one datasource is scoped by both. */
const inWorkspace = (workspaceId: string, id: string) => (eb: ExpressionBuilder<Database, 'datasource'>) =>
  eb.and([eb('workspace_id', '=', workspaceId), eb('id', '=', id)]);

const bumpContentVersion = (trx: Kysely<Database>, datastoreId: string) =>
  trx
    .updateTable('datastore')
    .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
    .where('id', '=', datastoreId)
    .execute();

export class SqlDatasourceStore extends OwnedRecords<'datasource', DatasourceRecord> implements DatasourceStore {
  constructor(private readonly connection: SqlConnection) {
    super(connection.db, 'datasource', toRecord);
  }

  async create(datasource: DatasourceRecord, job: NewJob): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('datasource')
        .values({
          id: datasource.id,
          workspace_id: datasource.workspaceId,
          datastore_id: datasource.datastoreId,
          type: datasource.type,
          name: datasource.name,
          status: datasource.status,
          custom_id: datasource.customId,
          group_id: datasource.groupId,
          config: JSON.stringify(datasource.config),
          file_key: datasource.fileKey,
          mime_type: datasource.mimeType,
          size_bytes: datasource.sizeBytes,
          content_key: datasource.contentKey,
          error: datasource.error,
          progress: datasource.progress,
          nb_chunks: datasource.nbChunks,
          text_size: datasource.textSize,
          total_pages: datasource.totalPages,
          generation: datasource.generation,
          last_synch: datasource.lastSynch,
          created_at: datasource.createdAt,
          updated_at: datasource.updatedAt,
        })
        .execute();
      await insertJob(trx, job, datasource.createdAt);
    });
  }

  listByDatastore(workspaceId: string, datastoreId: string): Promise<DatasourceRecord[]> {
    return this.listWhere(workspaceId, 'datastore_id', datastoreId, 'desc');
  }

  listByGroup(workspaceId: string, groupId: string): Promise<DatasourceRecord[]> {
    return this.listWhere(workspaceId, 'group_id', groupId, 'asc');
  }

  /** The workspace's datasources whose `column` is `value`, by creation (ties by id) in `order`. */
  private async listWhere(workspaceId: string, column: 'datastore_id' | 'group_id', value: string, order: 'asc' | 'desc') {
    const rows = await this.db
      .selectFrom('datasource')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where(column, '=', value)
      .orderBy('created_at', order)
      .orderBy('id', order)
      .execute();
    return rows.map(toRecord);
  }

  requeue(workspaceId: string, id: string, job: (generation: number) => NewJob): Promise<DatasourceRecord | undefined> {
    return this.nextGeneration(workspaceId, id, {}, job);
  }

  replaceContent(
    workspaceId: string,
    id: string,
    content: ReplacedContent,
    job: (generation: number) => NewJob,
  ): Promise<DatasourceRecord | undefined> {
    const columns = {
      name: content.name,
      config: JSON.stringify(content.config),
      file_key: content.fileKey,
      mime_type: content.mimeType,
      size_bytes: content.sizeBytes,
      content_key: content.contentKey,
    };
    return this.nextGeneration(workspaceId, id, columns, job);
  }

  /** A new generation (with `columns` changed too) and its job, in one transaction. */
  private nextGeneration(
    workspaceId: string,
    id: string,
    columns: Updateable<DatasourceTable>,
    job: (generation: number) => NewJob,
  ): Promise<DatasourceRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      const row = await trx
        .updateTable('datasource')
        .set((eb) => ({
          ...columns,
          generation: eb('generation', '+', 1),
          status: 'pending',
          progress: 0,
          error: null,
          updated_at: at,
        }))
        .where(inWorkspace(workspaceId, id))
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await insertJob(trx, job(row.generation), at);
      return toRecord(row);
    });
  }

  async findByContentKey(workspaceId: string, datastoreId: string, contentKey: string): Promise<DatasourceRecord[]> {
    const rows = await this.ofDatastore(workspaceId, datastoreId).where('content_key', '=', contentKey).execute();
    return rows.map(toRecord);
  }

  async findByName(workspaceId: string, datastoreId: string, name: string, types: readonly DatasourceType[]): Promise<DatasourceRecord[]> {
    const rows = await this.ofDatastore(workspaceId, datastoreId).where('name', '=', name).where('type', 'in', types).execute();
    return rows.map(toRecord);
  }

  async listWithoutContentKey(workspaceId: string, datastoreId: string, types: readonly DatasourceType[]): Promise<DatasourceRecord[]> {
    const rows = await this.ofDatastore(workspaceId, datastoreId).where('content_key', 'is', null).where('type', 'in', types).execute();
    return rows.map(toRecord);
  }

  async setContentKey(workspaceId: string, id: string, contentKey: string): Promise<void> {
    await this.db.updateTable('datasource').set({ content_key: contentKey }).where(inWorkspace(workspaceId, id)).execute();
  }

  /** The datastore's datasources, oldest first. */
  private ofDatastore(workspaceId: string, datastoreId: string) {
    return this.db
      .selectFrom('datasource')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('datastore_id', '=', datastoreId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc');
  }

  async markQueued(workspaceId: string, id: string): Promise<void> {
    await this.db
      .updateTable('datasource')
      .set({ status: 'pending', updated_at: new Date().toISOString() })
      .where(inWorkspace(workspaceId, id))
      .where('status', '=', 'unsynched')
      .execute();
  }

  async generation(workspaceId: string, id: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('datasource').select('generation').where(inWorkspace(workspaceId, id)).executeTakeFirst();
    return row?.generation;
  }

  async report(workspaceId: string, id: string, generation: number, progress: DatasourceProgress, event?: NewOutboxEvent): Promise<boolean> {
    const at = new Date().toISOString();
    const update = (db: Kysely<Database>, config?: string) =>
      db
        .updateTable('datasource')
        .set({ ...progressColumns(progress), config, updated_at: at })
        .where(inWorkspace(workspaceId, id))
        .where('generation', '=', generation)
        .executeTakeFirst();
    // Progress reports are frequent: only the rare one carrying an event or config pays for a transaction.
    if (event === undefined && progress.config === undefined) return (await update(this.db)).numUpdatedRows > 0n;
    return this.db.transaction().execute(async (trx) => {
      let config: string | undefined;
      if (progress.config !== undefined) {
        const stored = await this.lockedConfig(trx, workspaceId, id);
        if (stored === undefined) return false;
        config = JSON.stringify({ ...stored, ...progress.config });
      }
      const applied = (await update(trx, config)).numUpdatedRows > 0n;
      if (applied && event !== undefined) await insertOutboxEvent(trx, event, at);
      return applied;
    });
  }

  async changeConfig(
    workspaceId: string,
    id: string,
    change: (config: Record<string, unknown>) => Record<string, unknown> | undefined,
  ): Promise<DatasourceRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const stored = await this.lockedConfig(trx, workspaceId, id);
      const config = stored === undefined ? undefined : change(stored);
      if (config === undefined) return undefined;
      const row = await trx
        .updateTable('datasource')
        .set({ config: JSON.stringify(config), updated_at: new Date().toISOString() })
        .where(inWorkspace(workspaceId, id))
        .returningAll()
        .executeTakeFirst();
      return row && toRecord(row);
    });
  }

  /** The stored config, its row locked to the end of `trx` on PostgreSQL (SQLite serialises writers). */
  private async lockedConfig(trx: Kysely<Database>, workspaceId: string, id: string): Promise<Record<string, unknown> | undefined> {
    let query = trx.selectFrom('datasource').select('config').where(inWorkspace(workspaceId, id));
    if (this.connection.capabilities.supportsRowLocks) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && (JSON.parse(row.config) as Record<string, unknown>);
  }

  async writeIndex(workspaceId: string, id: string, generation: number, content: IndexedContent): Promise<IndexOutcome> {
    // Index DDL takes its own lock on `chunk`: outside the transaction below, or the two would wait on each other.
    await this.connection.prepareVectorIndex?.(content.embeddingDimensions);
    const outcome = await this.replaceChunks(workspaceId, id, generation, content);
    if (outcome === 'written') await this.connection.afterChunksWritten?.(content.chunks.length);
    return outcome;
  }

  private replaceChunks(workspaceId: string, id: string, generation: number, content: IndexedContent): Promise<IndexOutcome> {
    return this.db.transaction().execute(async (trx) => {
      let current = trx.selectFrom('datasource').selectAll().where(inWorkspace(workspaceId, id)).where('generation', '=', generation);
      if (this.connection.capabilities.supportsRowLocks) current = current.forUpdate();
      const datasource = await current.executeTakeFirst();
      if (datasource === undefined) return 'superseded';
      if (!(await this.adoptModel(trx, datasource.datastore_id, content))) return 'model-mismatch';

      // Its vectors go with each chunk (ON DELETE CASCADE).
      await trx.deleteFrom('chunk').where('datasource_id', '=', id).execute();
      const chunkId = (ordinal: number) => `${id}.${generation}.${ordinal}`;
      const chunkRows = content.chunks.map((chunk) => ({
        id: chunkId(chunk.ordinal),
        workspace_id: datasource.workspace_id,
        datastore_id: datasource.datastore_id,
        datasource_id: id,
        custom_id: datasource.custom_id,
        ordinal: chunk.ordinal,
        text: chunk.text,
        source: chunk.source,
        page_number: chunk.pageNumber,
        tokens: chunk.tokens,
      }));
      const vectors = content.chunks.flatMap((chunk) => chunk.vectors.map((vector) => ({ chunk_id: chunkId(chunk.ordinal), vector })));
      for (let start = 0; start < chunkRows.length; start += INSERT_BATCH) {
        await trx
          .insertInto('chunk')
          .values(chunkRows.slice(start, start + INSERT_BATCH))
          .execute();
      }
      // Encoded a batch at a time: as pgvector text, all of a big document's vectors would take hundreds of MB.
      for (let start = 0; start < vectors.length; start += INSERT_BATCH) {
        const rows = vectors.slice(start, start + INSERT_BATCH).map(({ chunk_id, vector }) => ({
          chunk_id,
          datastore_id: datasource.datastore_id,
          datasource_id: id,
          dimensions: vector.length,
          embedding: this.connection.encodeVector(vector),
        }));
        await trx.insertInto('chunk_vector').values(rows).execute();
      }
      await bumpContentVersion(trx, datasource.datastore_id);
      const at = new Date().toISOString();
      await trx
        .updateTable('datasource')
        .set({
          status: 'synched',
          progress: 1,
          error: null,
          nb_chunks: content.chunks.length,
          text_size: content.textSize,
          total_pages: content.totalPages,
          vector_layout: content.vectorLayout,
          config:
            content.config === undefined
              ? undefined
              : JSON.stringify({ ...(JSON.parse(datasource.config) as Record<string, unknown>), ...content.config }),
          last_synch: at,
          updated_at: at,
        })
        .where(inWorkspace(workspaceId, id))
        .execute();
      if (content.event !== undefined) await insertOutboxEvent(trx, content.event, at);
      return 'written';
    });
  }

  async delete(workspaceId: string, id: string): Promise<DatasourceRecord | undefined> {
    // Chunks go with it (ON DELETE CASCADE), and with them their keyword-index entries (triggers).
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('datasource').where(inWorkspace(workspaceId, id)).returningAll().executeTakeFirst();
      if (row === undefined) return undefined;
      await bumpContentVersion(trx, row.datastore_id);
      return toRecord(row);
    });
  }

  async listChunks(workspaceId: string, id: string, page: { offset: number; limit: number }): Promise<ChunkRecord[]> {
    const rows = await this.db
      .selectFrom('chunk')
      .select(['id', 'datasource_id', 'ordinal', 'text', 'source', 'page_number', 'tokens', 'custom_id'])
      .where('workspace_id', '=', workspaceId)
      .where('datasource_id', '=', id)
      .orderBy('ordinal')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      datasourceId: row.datasource_id,
      ordinal: row.ordinal,
      text: row.text,
      source: row.source,
      pageNumber: row.page_number,
      tokens: row.tokens,
      customId: row.custom_id,
    }));
  }

  async storedTextSize(workspaceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('datasource')
      .select((eb) => eb.fn.sum<number | string>('text_size').as('total'))
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'synched')
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  async listEmbeddedWithOtherModel(modelId: string): Promise<DatasourceRecord[]> {
    const rows = await this.db
      .selectFrom('datasource')
      .innerJoin('datastore', 'datastore.id', 'datasource.datastore_id')
      .selectAll('datasource')
      .where('datastore.embedding_model', 'is not', null)
      .where('datastore.embedding_model', '!=', modelId)
      .execute();
    return rows.map(toRecord);
  }

  async listWithOtherVectorLayout({ windowed, whole }: { windowed: string; whole: string }): Promise<DatasourceRecord[]> {
    const rows = await this.db
      .selectFrom('datasource')
      .innerJoin('datastore', 'datastore.id', 'datasource.datastore_id')
      .selectAll('datasource')
      .where('datasource.status', '=', 'synched')
      .where((eb) =>
        eb.or([
          eb('datasource.vector_layout', 'is', null),
          eb.and([eb('datastore.vector_windows', '!=', 0), eb('datasource.vector_layout', '!=', windowed)]),
          eb.and([eb('datastore.vector_windows', '=', 0), eb('datasource.vector_layout', '!=', whole)]),
        ]),
      )
      .execute();
    return rows.map(toRecord);
  }

  /** Whether the content's model may index into the datastore, by the content's rule; records the model it adopts. */
  private async adoptModel(trx: Kysely<Database>, datastoreId: string, content: IndexedContent): Promise<boolean> {
    const datastore = await trx.selectFrom('datastore').select(['embedding_model']).where('id', '=', datastoreId).executeTakeFirstOrThrow();
    const decision = content.modelRule(datastore.embedding_model, content.embeddingModel);
    if (decision !== 'adopt') return decision === 'keep';
    await trx
      .updateTable('datastore')
      .set({ embedding_model: content.embeddingModel, embedding_dimensions: content.embeddingDimensions })
      .where('id', '=', datastoreId)
      .execute();
    return true;
  }
}
