import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { ScopedReads } from '../ports/owned-records.js';

/** Tables whose rows belong to one workspace and are read by id, newest first. */
export type OwnedTable = 'api_key' | 'datastore' | 'datasource' | 'conversation' | 'member' | 'webhook_endpoint' | 'delivery' | 'model_provider';

interface OwnedColumns {
  id: string;
  workspace_id: string;
  created_at: string;
}

/**
 * The scoped reads every owned table has, written once. The cast narrows each table to the columns the
 * queries touch; the rows come back whole, typed as the table's own.
 */
export class OwnedRows<T extends OwnedTable> {
  readonly #db: Kysely<Record<OwnedTable, OwnedColumns>>;

  constructor(
    db: Kysely<Database>,
    private readonly table: T,
  ) {
    this.#db = db as unknown as Kysely<Record<OwnedTable, OwnedColumns>>;
  }

  async find(workspaceId: string, id: string): Promise<Selectable<Database[T]> | undefined> {
    const row = await this.#db
      .selectFrom(this.table as OwnedTable)
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row as Selectable<Database[T]> | undefined;
  }

  /** The workspace that owns `id`, whichever it is. */
  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.#db
      .selectFrom(this.table as OwnedTable)
      .select('workspace_id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.workspace_id;
  }

  async newestFirst(workspaceId: string): Promise<Selectable<Database[T]>[]> {
    const rows = await this.#db
      .selectFrom(this.table as OwnedTable)
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows as Selectable<Database[T]>[];
  }
}

/** The scoped reads of a store whose records map one to one from an owned table's rows. */
export abstract class OwnedRecords<T extends OwnedTable, R> implements ScopedReads<R> {
  readonly #rows: OwnedRows<T>;

  protected constructor(
    db: Kysely<Database>,
    table: T,
    private readonly toRecord: (row: Selectable<Database[T]>) => R,
  ) {
    this.#rows = new OwnedRows(db, table);
  }

  async find(workspaceId: string, id: string): Promise<R | undefined> {
    const row = await this.#rows.find(workspaceId, id);
    return row && this.toRecord(row);
  }

  ownerOf(id: string): Promise<string | undefined> {
    return this.#rows.ownerOf(id);
  }

  async list(workspaceId: string): Promise<R[]> {
    return (await this.#rows.newestFirst(workspaceId)).map((row) => this.toRecord(row));
  }
}
