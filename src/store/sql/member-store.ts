import type { Kysely, Selectable } from 'kysely';
import type { Database, MemberTable } from '../schema.js';
import type { MemberRecord, MemberRole, MemberStore } from '../ports/member-store.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<MemberTable>): MemberRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  email: row.email,
  name: row.name,
  role: row.role as MemberRole,
  createdAt: row.created_at,
});

export class SqlMemberStore extends OwnedRecords<'member', MemberRecord> implements MemberStore {
  constructor(private readonly db: Kysely<Database>) {
    super(db, 'member', toRecord);
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
