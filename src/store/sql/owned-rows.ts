import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../schema.js';
import type { ScopedReads } from '../ports/owned-records.js';

/** Tables whose rows belong to one workspace and are read by id, newest first. */
export type OwnedTable =
  | 'api_key'
  | 'datastore'
  | 'datasource'
  | 'conversation'
  | 'member'
  | 'webhook_endpoint'
  | 'delivery'
  | 'model_provider'
  | 'channel_connection'
  | 'saved_reply'
  | 'label';

interface OwnedColumns {
  id: string;
  workspace_id: string;
  created_at: string;
}

/**
 * The scoped reads and writes every owned table has, written once. The cast narrows each table to the columns
 * the queries name; the columns set and the rows that come back are typed as the table's own.
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

  /** Sets `columns` on the workspace's row `id`: the row as it now is, if there is one. */
  async update(workspaceId: string, id: string, columns: Updateable<Database[T]>): Promise<Selectable<Database[T]> | undefined> {
    const row = await this.#db
      .updateTable(this.table as OwnedTable)
      .set(columns as Updateable<OwnedColumns>)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row as Selectable<Database[T]> | undefined;
  }

  /** Deletes the workspace's row `id`: the row as it was, if there was one. */
  async delete(workspaceId: string, id: string): Promise<Selectable<Database[T]> | undefined> {
    const row = await this.#db
      .deleteFrom(this.table as OwnedTable)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row as Selectable<Database[T]> | undefined;
  }
}

/** The scoped reads and writes of a store whose records map one to one from an owned table's rows. */
export abstract class OwnedRecords<T extends OwnedTable, R> implements ScopedReads<R> {
  readonly #rows: OwnedRows<T>;

  protected constructor(
    protected readonly db: Kysely<Database>,
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

  /** Sets `columns` on the workspace's record `id`: the record as it now is, if there is one. */
  protected async updateColumns(workspaceId: string, id: string, columns: Updateable<Database[T]>): Promise<R | undefined> {
    const row = await this.#rows.update(workspaceId, id, columns);
    return row && this.toRecord(row);
  }

  /** Deletes the workspace's record `id`: the record as it was, if there was one. */
  protected async deleteRecord(workspaceId: string, id: string): Promise<R | undefined> {
    const row = await this.#rows.delete(workspaceId, id);
    return row && this.toRecord(row);
  }
}
