import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { SqlConnection } from './sql-dialect.js';
import type { MemberRecord, MemberRole, MemberStore, NewMember, WorkspaceMembership } from '../ports/member-store.js';

/** Members with their user's current e-mail and name, and the ones the invitation was made with. */
function membersWithUsers(db: Kysely<Database>) {
  return db
    .selectFrom('member')
    .innerJoin('app_user', 'app_user.id', 'member.user_id')
    .select([
      'member.id',
      'member.workspace_id',
      'member.user_id',
      'member.role',
      'member.created_at',
      'member.accepted_at',
      'member.email as invited_email',
      'member.name as invited_name',
      'app_user.email',
      'app_user.name',
    ]);
}

type MemberRow = Awaited<ReturnType<ReturnType<typeof membersWithUsers>['executeTakeFirstOrThrow']>>;

/** Until the person accepts, a member shows what the inviter wrote: nothing of the account behind the address. */
const toRecord = (row: MemberRow): MemberRecord => {
  const invited = row.accepted_at === null;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    userId: row.user_id,
    email: invited ? row.invited_email : row.email,
    name: invited ? row.invited_name : row.name,
    role: row.role as MemberRole,
    status: invited ? 'invited' : 'active',
    createdAt: row.created_at,
  };
};

export class SqlMemberStore implements MemberStore {
  constructor(private readonly connection: SqlConnection) {}

  private get db(): Kysely<Database> {
    return this.connection.db;
  }

  async find(workspaceId: string, id: string): Promise<MemberRecord | undefined> {
    const row = await membersWithUsers(this.db).where('member.workspace_id', '=', workspaceId).where('member.id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async ownerOf(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('member').select('workspace_id').where('id', '=', id).executeTakeFirst())?.workspace_id;
  }

  async list(workspaceId: string): Promise<MemberRecord[]> {
    const rows = await membersWithUsers(this.db)
      .where('member.workspace_id', '=', workspaceId)
      .orderBy('member.created_at', 'desc')
      .orderBy('member.id', 'desc')
      .execute();
    return rows.map(toRecord);
  }

  async findByUser(workspaceId: string, userId: string): Promise<MemberRecord | undefined> {
    const row = await membersWithUsers(this.db)
      .where('member.workspace_id', '=', workspaceId)
      .where('member.user_id', '=', userId)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async listByUser(userId: string): Promise<WorkspaceMembership[]> {
    const rows = await membersWithUsers(this.db)
      .innerJoin('workspace', 'workspace.id', 'member.workspace_id')
      .select('workspace.name as workspace_name')
      .where('member.user_id', '=', userId)
      .orderBy('workspace.created_at')
      .orderBy('workspace.id')
      .execute();
    return rows.map((row) => ({ member: toRecord(row), workspaceName: row.workspace_name }));
  }

  async create(member: NewMember): Promise<boolean> {
    const inserted = await this.db
      .insertInto('member')
      .values({
        id: member.id,
        workspace_id: member.workspaceId,
        user_id: member.userId,
        email: member.email,
        name: member.name,
        role: member.role,
        created_at: member.createdAt,
        accepted_at: member.acceptedAt,
      })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return (inserted.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async accept(workspaceId: string, id: string, at: string): Promise<void> {
    await this.db
      .updateTable('member')
      .set({ accepted_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .execute();
  }

  async changeRole(workspaceId: string, id: string, role: MemberRole): Promise<MemberRecord | 'last-owner' | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const owners = await this.lockOwners(trx, workspaceId);
      const current = await membersWithUsers(trx).where('member.workspace_id', '=', workspaceId).where('member.id', '=', id).executeTakeFirst();
      if (current === undefined) return undefined;
      if (current.role === 'owner' && role !== 'owner' && owners.every((owner) => owner === id)) return 'last-owner';
      await trx.updateTable('member').set({ role }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      return { ...toRecord(current), role };
    });
  }

  async delete(workspaceId: string, id: string): Promise<MemberRecord | 'last-owner' | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const owners = await this.lockOwners(trx, workspaceId);
      const current = await membersWithUsers(trx).where('member.workspace_id', '=', workspaceId).where('member.id', '=', id).executeTakeFirst();
      if (current === undefined) return undefined;
      if (current.role === 'owner' && owners.every((owner) => owner === id)) return 'last-owner';
      await trx.deleteFrom('member').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      return toRecord(current);
    });
  }

  /**
   * The workspace's owners. PostgreSQL locks all of them, in one order, before any is changed: of two owners
   * demoting each other at once one waits, then finds itself the last (SQLite's single writer serialises anyway).
   */
  private async lockOwners(trx: Kysely<Database>, workspaceId: string): Promise<string[]> {
    const rows = await sql<{ id: string }>`
      select id from member where workspace_id = ${workspaceId} and role = 'owner' order by id
      ${this.connection.capabilities.supportsRowLocks ? sql`for update` : sql``}`.execute(trx);
    return rows.rows.map((row) => row.id);
  }
}
