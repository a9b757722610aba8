import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type { Database, MessageTable } from '../schema.js';
import type {
  MessageDelivery,
  MessageEval,
  MessageFrom,
  MessageMatch,
  MessageNotice,
  MessageRecord,
  MessageStore,
  MessageUsage,
  NewMessage,
} from '../ports/message-store.js';
import { readSources, storedSources } from './stored-answer-source.js';

export const toMessageRecord = (row: Selectable<MessageTable>): MessageRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  conversationId: row.conversation_id,
  from: row.from as MessageFrom,
  text: row.text,
  sources: readSources(row.sources),
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
  channelMessageId: row.channel_message_id,
  delivery: row.delivery_state === null ? null : { state: row.delivery_state as MessageDelivery['state'], error: row.delivery_error },
  private: row.private === 1,
});

/** The messages `match` describes (all of them when it names nothing). */
export const matchesMessage =
  (match: MessageMatch) =>
  (eb: ExpressionBuilder<Database, 'message'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [];
    if (match.read !== undefined) conditions.push(eb('message.read', '=', match.read ? 1 : 0));
    if (match.from !== undefined) conditions.push(eb('message.from', '=', match.from));
    if (match.byMember !== undefined) conditions.push(eb('message.member_id', match.byMember ? 'is not' : 'is', null));
    if (match.private !== undefined) conditions.push(eb('message.private', '=', match.private ? 1 : 0));
    return eb.and(conditions);
  };

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
      sources: storedSources(message.sources),
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
      channel_message_id: message.channelMessageId ?? null,
      delivery_state: message.delivery?.state ?? null,
      delivery_error: message.delivery?.error ?? null,
      private: message.private === true ? 1 : 0,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMessageRecord(row);
}

export class SqlMessageStore implements MessageStore {
  constructor(private readonly db: Kysely<Database>) {}

  async find(workspaceId: string, id: string): Promise<MessageRecord | undefined> {
    const row = await this.db.selectFrom('message').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
    return row && toMessageRecord(row);
  }

  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('message').select('workspace_id').where('id', '=', id).executeTakeFirst();
    return row?.workspace_id;
  }

  async listByConversations(workspaceId: string, conversationIds: readonly string[], options: { latest?: number } = {}): Promise<MessageRecord[]> {
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
    const rows = await this.db.selectFrom(ranked).selectAll().where('rank', '<=', latest).orderBy('created_at').orderBy('id').execute();
    return rows.map(({ rank: _rank, ...row }) => toMessageRecord(row));
  }

  async firstMatching(workspaceId: string, conversationIds: readonly string[], match: MessageMatch): Promise<Map<string, MessageRecord>> {
    if (conversationIds.length === 0) return new Map();
    const ranked = this.db
      .selectFrom('message')
      .selectAll()
      .select((eb) =>
        eb.fn
          .agg<number>('row_number')
          .over((over) => over.partitionBy('conversation_id').orderBy('created_at').orderBy('id'))
          .as('rank'),
      )
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', 'in', [...conversationIds])
      .where(matchesMessage(match))
      .as('ranked');
    const rows = await this.db.selectFrom(ranked).selectAll().where('rank', '=', 1).execute();
    return new Map(rows.map(({ rank: _rank, ...row }) => [row.conversation_id, toMessageRecord(row)]));
  }

  async countMatching(workspaceId: string, conversationIds: readonly string[], match: MessageMatch): Promise<Map<string, number>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('message')
      .select((eb) => ['conversation_id', eb.fn.countAll<number | string>().as('matching')])
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', 'in', [...conversationIds])
      .where(matchesMessage(match))
      .groupBy('conversation_id')
      .execute();
    return new Map(rows.map((row) => [row.conversation_id, Number(row.matching)]));
  }

  async findByChannelMessageId(workspaceId: string, conversationId: string, channelMessageId: string): Promise<MessageRecord | undefined> {
    const row = await this.db
      .selectFrom('message')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', '=', conversationId)
      .where('channel_message_id', '=', channelMessageId)
      .executeTakeFirst();
    return row && toMessageRecord(row);
  }

  async recordDelivery(workspaceId: string, id: string, delivery: MessageDelivery, channelMessageId?: string): Promise<void> {
    await this.db
      .updateTable('message')
      .set({
        delivery_state: delivery.state,
        delivery_error: delivery.error,
        ...(channelMessageId === undefined ? {} : { channel_message_id: channelMessageId }),
      })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
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
