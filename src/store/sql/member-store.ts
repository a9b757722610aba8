import type { Kysely, Selectable } from 'kysely';
import type { Database, MemberTable } from '../schema.js';
import type { MemberRecord, MemberRole, MemberStore } from '../store.js';
import { OwnedRows } from './owned-rows.js';

const toRecord = (row: Selectable<MemberTable>): MemberRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  role: row.role as MemberRole,
  createdAt: row.created_at,
});

export class SqlMemberStore implements MemberStore {
  private readonly rows: OwnedRows<'member'>;

  constructor(private readonly db: Kysely<Database>) {
    this.rows = new OwnedRows(db, 'member');
  }

  async create(member: MemberRecord): Promise<boolean> {
    const inserted = await this.db
      .insertInto('member')
      .values({
        id: member.id,
        workspace_id: member.workspaceId,
        email: member.email,
        name: member.name,
        role: member.role,
        created_at: member.createdAt,
      })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'email']).doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async find(workspaceId: string, id: string): Promise<MemberRecord | undefined> {
    const row = await this.rows.find(workspaceId, id);
    return row && toRecord(row);
  }

  ownerOf(id: string): Promise<string | undefined> {
    return this.rows.ownerOf(id);
  }

  async list(workspaceId: string): Promise<MemberRecord[]> {
    return (await this.rows.newestFirst(workspaceId)).map(toRecord);
  }

  async delete(workspaceId: string, id: string): Promise<MemberRecord | undefined> {
    const row = await this.db
      .deleteFrom('member')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }
}
