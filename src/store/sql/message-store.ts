import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type { Database, MessageTable } from '../schema.js';
import type {
  MessageEval,
  MessageFrom,
  MessageNotice,
  MessageRecord,
  MessageStore,
  MessageUsage,
  NewMessage,
} from '../ports/message-store.js';

export const toMessageRecord = (row: Selectable<MessageTable>): MessageRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  conversationId: row.conversation_id,
  from: row.from as MessageFrom,
  text: row.text,
  sources: JSON.parse(row.sources) as Record<string, unknown>[],
  eval: row.eval as MessageEval | null,
  read: row.read === 1,
  attachments: JSON.parse(row.attachments) as Record<string, unknown>[],
  usage: row.usage === null ? null : (JSON.parse(row.usage) as MessageUsage),
  model: row.model,
  visitorId: row.visitor_id,
  memberId: row.member_id,
  createdAt: row.created_at,
  interrupted: row.interrupted === 1,
  notice: row.notice === null ? null : (JSON.parse(row.notice) as MessageNotice),
});

/** A visitor's message no member has read: what the inbox counts as unread. */
export const isUnread = (eb: ExpressionBuilder<Database, 'message'>): Expression<SqlBool> =>
  eb.and([eb('message.read', '=', 0), eb('message.from', '=', 'human'), eb('message.member_id', 'is', null)]);

/** Inserts a message; shared so a conversation change can add one inside its own transaction. */
export async function insertMessage(db: Kysely<Database>, message: NewMessage): Promise<MessageRecord> {
  const row = await db
    .insertInto('message')
    .values({
      id: message.id,
      workspace_id: message.workspaceId,
      conversation_id: message.conversationId,
      from: message.from,
      text: message.text,
      sources: JSON.stringify(message.sources),
      eval: null,
      read: message.read ? 1 : 0,
      attachments: JSON.stringify(message.attachments),
      usage: message.usage === null ? null : JSON.stringify(message.usage),
      model: message.model,
      visitor_id: message.visitorId,
      member_id: message.memberId,
      created_at: message.createdAt,
      interrupted: message.interrupted ? 1 : 0,
      notice: message.notice === null ? null : JSON.stringify(message.notice),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMessageRecord(row);
}

export class SqlMessageStore implements MessageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
    const row = await this.db
      .selectFrom('message')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toMessageRecord(row);
  }

  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('message').select('workspace_id').where('id', '=', id).executeTakeFirst();
    return row?.workspace_id;
  }

  async listByConversations(
    workspaceId: string,
    conversationIds: readonly string[],
    options: { latest?: number } = {},
  ): Promise<MessageRecord[]> {
    if (conversationIds.length === 0) return [];
    const { latest } = options;
    const inScope = this.db
      .selectFrom('message')
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', 'in', [...conversationIds]);
    if (latest === undefined) {
      const rows = await inScope.selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(toMessageRecord);
    }
    // Each conversation's last `latest` messages: ranked newest first per conversation, then cut.
    const ranked = inScope
      .selectAll()
      .select((eb) =>
        eb.fn
          .agg<number>('row_number')
          .over((over) => over.partitionBy('conversation_id').orderBy('created_at', 'desc').orderBy('id', 'desc'))
          .as('rank'),
      )
      .as('ranked');
    const rows = await this.db
      .selectFrom(ranked)
      .selectAll()
      .where('rank', '<=', latest)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(({ rank: _rank, ...row }) => toMessageRecord(row));
  }

  async unreadCounts(workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('message')
      .select((eb) => ['conversation_id', eb.fn.countAll<number | string>().as('unread')])
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', 'in', [...conversationIds])
      .where(isUnread)
      .groupBy('conversation_id')
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, Number(row.unread)]));
  }

  async rate(workspaceId: string, id: string, value: MessageEval | null): Promise<MessageRecord | undefined> {
    const row = await this.db
      .updateTable('message')
      .set({ eval: value })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toMessageRecord(row);
  }

  async countAgentAnswersSince(workspaceId: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('message')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .where('from', '=', 'agent')
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
}
