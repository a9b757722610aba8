import { sql, type Selectable } from 'kysely';
import type { ApiKeyTable } from '../schema.js';
import type { ApiKeyRecord, ApiKeyStore, KeyDeletion, KeyWithMaker } from '../ports/api-key-store.js';
import type { MemberRole } from '../ports/member-store.js';
import type { SqlConnection } from './sql-dialect.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<ApiKeyTable>): ApiKeyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
  createdBy: row.created_by,
});

export class SqlApiKeyStore extends OwnedRecords<'api_key', ApiKeyRecord> implements ApiKeyStore {
  constructor(private readonly connection: SqlConnection) {
    super(connection.db, 'api_key', toRecord);
  }

  async create(key: ApiKeyRecord, hash: string): Promise<void> {
    await this.db
      .insertInto('api_key')
      .values({
        id: key.id,
        workspace_id: key.workspaceId,
        name: key.name,
        prefix: key.prefix,
        hash,
        created_at: key.createdAt,
        last_used_at: key.lastUsedAt,
        created_by: key.createdBy,
      })
      .execute();
  }

  async findByHash(hash: string): Promise<KeyWithMaker | undefined> {
    // Run on every keyed request: written as SQL rather than built, as building costs more than running it.
    const { rows } = await sql<Selectable<ApiKeyTable> & { maker_role: string | null }>`
      select api_key.*, member.role as maker_role from api_key
      left join member on member.workspace_id = api_key.workspace_id and member.user_id = api_key.created_by
        and member.accepted_at is not null
      where api_key.hash = ${hash}`.execute(this.db);
    const row = rows[0];
    return row && { key: toRecord(row), makerRole: row.maker_role as MemberRole | null };
  }

  async markUsed(workspaceId: string, id: string, at: string): Promise<void> {
    await this.db.updateTable('api_key').set({ last_used_at: at }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  }

  async delete(workspaceId: string, id: string): Promise<KeyDeletion> {
    return this.db.transaction().execute(async (trx) => {
      if (this.connection.capabilities.supportsRowLocks) {
        // Two concurrent deletes must not both see "two keys left".
        await trx.selectFrom('workspace').select('id').where('id', '=', workspaceId).forUpdate().execute();
      }
      const keys = await trx.selectFrom('api_key').select('id').where('workspace_id', '=', workspaceId).execute();
      if (!keys.some((key) => key.id === id)) return 'missing';
      if (keys.length === 1) return 'last-key';
      await trx.deleteFrom('api_key').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      return 'deleted';
    });
  }
}
