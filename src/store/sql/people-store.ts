import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type UpdateQueryBuilder } from 'kysely';
import type { AppUserTable, Database, OneTimeLinkTable, UserSessionTable } from '../schema.js';
import type { SqlConnection } from './sql-dialect.js';
import type {
  AuthGeneration,
  AuthNotice,
  LinkPurpose,
  OneTimeLinkRecord,
  OneTimeLinkStore,
  SessionRecord,
  SessionStore,
  UserRecord,
  UserStore,
} from '../ports/people.js';

const toUser = (row: Selectable<AppUserTable>): UserRecord => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  authGeneration: Number(row.auth_generation),
});

/** The channel a bump of a user's token generation, and each process applying it, is announced on (PostgreSQL). */
const AUTH_CHANNEL = 'parley_auth';
/** The application name of each process's listening connection, before the watcher's id. */
const AUTH_WATCHER = 'parley-auth ';

/** "<subject> <generation>" is a bump; "applied <watcher id> <subject> <generation>" a watcher applying one. */
function readAuthNotice(payload: string): AuthNotice | undefined {
  const parts = payload.split(' ');
  if (parts.length === 2) return { kind: 'bump', subject: parts[0]!, generation: Number(parts[1]) };
  if (parts.length === 4 && parts[0] === 'applied')
    return { kind: 'applied', watcherId: parts[1]!, subject: parts[2]!, generation: Number(parts[3]) };
  return undefined;
}

const toSession = (row: Selectable<UserSessionTable>): SessionRecord => ({
  id: row.id,
  userId: row.user_id,
  userAgent: row.user_agent,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  revokedAt: row.revoked_at,
});

const toLink = (row: Selectable<OneTimeLinkTable>): OneTimeLinkRecord => ({
  purpose: row.purpose as LinkPurpose,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  memberId: row.member_id,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

export class SqlUserStore implements UserStore {
  readonly watchAuthGenerations?: UserStore['watchAuthGenerations'];
  readonly foreignWrites?: UserStore['foreignWrites'];

  constructor(private readonly connection: SqlConnection) {
    const { listen, listenersNamed, foreignWrites } = connection;
    if (listen !== undefined && listenersNamed !== undefined) {
      this.watchAuthGenerations = async (listener) => {
        const id = randomBytes(6).toString('hex');
        const stop = await listen(
          AUTH_CHANNEL,
          (payload) => {
            const notice = payload === null ? null : readAuthNotice(payload);
            if (notice !== undefined) listener(notice);
          },
          AUTH_WATCHER + id,
        );
        return {
          id,
          applied: async (subject, generation) => {
            await sql`select pg_notify(${AUTH_CHANNEL}, ${`applied ${id} ${subject} ${generation}`})`.execute(this.db);
          },
          announce: async (subject, generation) => {
            await sql`select pg_notify(${AUTH_CHANNEL}, ${`${subject} ${generation}`})`.execute(this.db);
          },
          watchers: async () => (await listenersNamed(AUTH_WATCHER)).map((name) => name.slice(AUTH_WATCHER.length)),
          stop,
        };
      };
    }
    this.foreignWrites = foreignWrites;
  }

  private get db(): Kysely<Database> {
    return this.connection.db;
  }

  async ensure(user: Omit<UserRecord, 'authGeneration'>): Promise<UserRecord> {
    await this.db
      .insertInto('app_user')
      .values({
        id: user.id,
        email: user.email,
        name: user.name,
        password_hash: user.passwordHash,
        created_at: user.createdAt,
        updated_at: user.updatedAt,
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute();
    return (await this.findByEmail(user.email))!;
  }

  async find(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirst();
    return row && toUser(row);
  }

  async update(id: string, changes: { name?: string; passwordHash?: string }, at: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .updateTable('app_user')
      .set({ name: changes.name, password_hash: changes.passwordHash, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toUser(row);
  }

  async anyWithPassword(): Promise<boolean> {
    const row = await this.db.selectFrom('app_user').select('id').where('password_hash', 'is not', null).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async bumpAuthGeneration(id: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('app_user')
        .set((eb) => ({ auth_generation: eb('auth_generation', '+', 1) }))
        .where('id', '=', id)
        .returning('auth_generation')
        .executeTakeFirst();
      const generation = Number(row?.auth_generation ?? 0);
      // Sent at commit, to every process listening: "<user id> <generation>".
      if (this.connection.listen !== undefined) await sql`select pg_notify(${AUTH_CHANNEL}, ${`${id} ${generation}`})`.execute(trx);
      return generation;
    });
  }

  async authGenerations(): Promise<AuthGeneration[]> {
    const rows = await this.db.selectFrom('app_user').select(['id', 'auth_generation']).where('auth_generation', '>', 0).execute();
    return rows.map((row) => ({ userId: row.id, generation: Number(row.auth_generation) }));
  }
}

export class SqlSessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(session: SessionRecord, tokenHash: string): Promise<void> {
    await this.db
      .insertInto('user_session')
      .values({
        id: session.id,
        token_hash: tokenHash,
        user_id: session.userId,
        user_agent: session.userAgent,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
        revoked_at: null,
      })
      .execute();
  }

  async findLive(tokenHash: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('user_session')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && toSession(row);
  }

  async touch(id: string, at: string): Promise<void> {
    await this.db.updateTable('user_session').set({ last_seen_at: at }).where('id', '=', id).execute();
  }

  async revoke(userId: string, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('user_session')
      .set({ revoked_at: at })
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeAll(userId: string, at: string, exceptId?: string): Promise<void> {
    let query = this.db.updateTable('user_session').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    await query.execute();
  }

  async listLive(userId: string): Promise<SessionRecord[]> {
    const rows = await this.db
      .selectFrom('user_session')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toSession);
  }
}

type LinkSubject = Pick<OneTimeLinkRecord, 'userId' | 'workspaceId' | 'memberId'>;

/**
 * Whose links of a purpose replace each other: any setup link another; a person's reset links each other,
 * whoever made them (an owner's names its workspace and member too); a membership's invitation links.
 */
const LINK_HOLDER = { setup: null, 'password-reset': 'userId', invitation: 'memberId' } as const satisfies Record<
  LinkPurpose,
  keyof LinkSubject | null
>;
const COLUMN = { userId: 'user_id', memberId: 'member_id' } as const;

/** Narrows an update to the unused links of one purpose held by the subject's person or membership. */
function sameHolder<Q extends UpdateQueryBuilder<Database, 'one_time_link', 'one_time_link', unknown>>(
  query: Q,
  purpose: LinkPurpose,
  subject: LinkSubject,
): Q {
  const narrowed = query.where('purpose', '=', purpose).where('used_at', 'is', null);
  const holder = LINK_HOLDER[purpose];
  if (holder === null) return narrowed as Q;
  const value = subject[holder];
  return (value === null ? narrowed.where(COLUMN[holder], 'is', null) : narrowed.where(COLUMN[holder], '=', value)) as Q;
}

export class SqlOneTimeLinkStore implements OneTimeLinkStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(link: OneTimeLinkRecord, tokenHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sameHolder(trx.updateTable('one_time_link').set({ used_at: link.createdAt }), link.purpose, link).execute();
      await trx
        .insertInto('one_time_link')
        .values({
          token_hash: tokenHash,
          purpose: link.purpose,
          user_id: link.userId,
          workspace_id: link.workspaceId,
          member_id: link.memberId,
          created_at: link.createdAt,
          expires_at: link.expiresAt,
          used_at: null,
        })
        .execute();
    });
  }

  async revokeAll(purpose: LinkPurpose, subject: LinkSubject, at: string): Promise<void> {
    await sameHolder(this.db.updateTable('one_time_link').set({ used_at: at }), purpose, subject).execute();
  }

  async peek(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined> {
    const row = await this.db
      .selectFrom('one_time_link')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    return row && toLink(row);
  }

  async consume(tokenHash: string, purpose: LinkPurpose, at: string): Promise<OneTimeLinkRecord | undefined> {
    // The check and the mark are one statement: two requests with one link cannot both use it.
    const row = await this.db
      .updateTable('one_time_link')
      .set({ used_at: at })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returningAll()
      .executeTakeFirst();
    return row && toLink(row);
  }
}
