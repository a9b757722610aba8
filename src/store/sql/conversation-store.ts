import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { ConversationTable, Database } from '../schema.js';
import type {
  AnswerEnd,
  AnswerRewrite,
  AppendEffects,
  AppendedMessage,
  ConversationChanges,
  ConversationEffects,
  ConversationFilter,
  ConversationPage,
  ConversationRecord,
  ConversationStatus,
  ConversationStore,
  ConversationUpdate,
  GroupCount,
  NewConversation,
  VisitorContext,
} from '../ports/conversation-store.js';
import type { MessageMatch, MessageRecord, NewMessage } from '../ports/message-store.js';
import type { NewOutboxEvent } from '../ports/outbox-store.js';
import { insertKnowledgeGap } from './analytics-store.js';
import { countWhen } from './count-when.js';
import { insertMessage, matchesMessage, toMessageRecord } from './message-store.js';
import { insertOutboxEvent } from './outbox-store.js';
import { storedSources } from './stored-answer-source.js';
import type { SqlConnection } from './sql-dialect.js';
import { OwnedRows } from './owned-rows.js';

const toRecord = (row: Selectable<ConversationTable>): ConversationRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  channel: row.channel,
  channelExternalId: row.channel_external_id,
  status: row.status as ConversationStatus,
  isAiEnabled: row.is_ai_enabled === 1,
  title: row.title,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  visitorId: row.visitor_id,
  contactId: row.contact_id,
  assigneeId: row.assignee_id,
  playground: row.playground === 1,
  visitorContext: row.visitor_context === null ? null : (JSON.parse(row.visitor_context) as VisitorContext),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** `%term%` for LIKE, with the term's own wildcards and escape character taken literally. */
const containsPattern = (term: string): string => `%${term.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

type ConversationScope = ExpressionBuilder<Database, 'conversation'>;

/**
 * Title, contact fields or any message text containing `term`, ignoring case. LOWER … LIKE with an
 * explicit ESCAPE behaves the same in SQLite and PostgreSQL (ILIKE is PostgreSQL's alone).
 */
function matchesSearch(eb: ConversationScope, term: string): Expression<SqlBool> {
  const pattern = containsPattern(term);
  const contains = (text: Expression<string | null>) => sql<SqlBool>`lower(${text}) like ${pattern} escape '\\'`;
  return eb.or([
    contains(eb.ref('conversation.title')),
    eb.exists(
      eb
        .selectFrom('contact')
        .select('contact.id')
        .whereRef('contact.id', '=', 'conversation.contact_id')
        .where((contact) =>
          contact.or([
            contains(sql<string>`coalesce(${contact.ref('contact.first_name')}, '') || ' ' || coalesce(${contact.ref('contact.last_name')}, '')`),
            contains(contact.ref('contact.email')),
            contains(contact.ref('contact.phone_number')),
          ]),
        ),
    ),
    eb.exists(
      eb
        .selectFrom('message')
        .select('message.id')
        .whereRef('message.workspace_id', '=', 'conversation.workspace_id')
        .whereRef('message.conversation_id', '=', 'conversation.id')
        .where((message) => contains(message.ref('message.text'))),
    ),
  ]);
}

/** Every condition of `filter`, ANDed (true without any). */
function matchesFilter(eb: ConversationScope, filter: ConversationFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.agentId !== undefined) conditions.push(eb('conversation.agent_id', '=', filter.agentId));
  if (filter.channel !== undefined) conditions.push(eb('conversation.channel', '=', filter.channel));
  if (filter.channelExternalId !== undefined) conditions.push(eb('conversation.channel_external_id', '=', filter.channelExternalId));
  if (filter.status !== undefined) conditions.push(eb('conversation.status', '=', filter.status));
  if (filter.open === true) conditions.push(eb('conversation.status', '!=', 'RESOLVED'));
  if (filter.assigneeId !== undefined) conditions.push(eb('conversation.assignee_id', '=', filter.assigneeId));
  if (filter.unassigned === true) conditions.push(eb('conversation.assignee_id', 'is', null));
  if (filter.createdFrom !== undefined) conditions.push(eb('conversation.created_at', '>=', filter.createdFrom));
  if (filter.createdTo !== undefined) conditions.push(eb('conversation.created_at', '<=', filter.createdTo));
  if (filter.playground !== undefined) conditions.push(eb('conversation.playground', '=', filter.playground ? 1 : 0));
  if (filter.visitorId !== undefined) conditions.push(eb('conversation.visitor_id', '=', filter.visitorId));
  const { labelId } = filter;
  if (labelId !== undefined) {
    conditions.push(
      eb.exists(
        eb
          .selectFrom('conversation_label')
          .select('conversation_label.label_id')
          .whereRef('conversation_label.workspace_id', '=', 'conversation.workspace_id')
          .whereRef('conversation_label.conversation_id', '=', 'conversation.id')
          .where('conversation_label.label_id', '=', labelId),
      ),
    );
  }
  const { search } = filter;
  if (search !== undefined && search !== '') conditions.push(matchesSearch(eb, search));
  return eb.and(conditions);
}

/** Records the status a conversation took at `at`, in the transaction that gives it. */
async function recordStatus(
  db: Kysely<Database>,
  conversation: Pick<ConversationRecord, 'workspaceId' | 'id' | 'status'>,
  at: string,
): Promise<void> {
  await db
    .insertInto('conversation_status_change')
    .values({ workspace_id: conversation.workspaceId, conversation_id: conversation.id, status: conversation.status, changed_at: at })
    .execute();
}

export class SqlConversationStore implements ConversationStore {
  private readonly rows: OwnedRows<'conversation'>;

  constructor(private readonly connection: SqlConnection) {
    this.rows = new OwnedRows(connection.db, 'conversation');
  }

  private get db() {
    return this.connection.db;
  }

  async find(workspaceId: string, id: string): Promise<ConversationRecord | undefined> {
    const row = await this.rows.find(workspaceId, id);
    return row && toRecord(row);
  }

  ownerOf(id: string): Promise<string | undefined> {
    return this.rows.ownerOf(id);
  }

  async list(workspaceId: string, filter: ConversationFilter = {}, page?: ConversationPage): Promise<ConversationRecord[]> {
    let query = this.db
      .selectFrom('conversation')
      .selectAll('conversation')
      .where('conversation.workspace_id', '=', workspaceId)
      .where((eb) => matchesFilter(eb, filter));
    const after = page?.after;
    if (after !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('conversation.updated_at', '<', after.updatedAt),
          eb.and([eb('conversation.updated_at', '=', after.updatedAt), eb('conversation.id', '<', after.id)]),
        ]),
      );
    }
    query = query.orderBy('conversation.updated_at', 'desc').orderBy('conversation.id', 'desc');
    if (page !== undefined) query = query.limit(page.limit);
    return (await query.execute()).map(toRecord);
  }

  async ensure(conversation: NewConversation, onCreated?: NewOutboxEvent): Promise<{ conversation: ConversationRecord; created: boolean }> {
    const inserted = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('conversation')
        .values({
          id: conversation.id,
          workspace_id: conversation.workspaceId,
          agent_id: conversation.agentId,
          channel: conversation.channel,
          channel_external_id: conversation.channelExternalId,
          status: conversation.status,
          is_ai_enabled: conversation.isAiEnabled ? 1 : 0,
          title: conversation.title,
          metadata: JSON.stringify(conversation.metadata),
          visitor_id: conversation.visitorId,
          contact_id: conversation.contactId,
          playground: conversation.playground === true ? 1 : 0,
          visitor_context: conversation.visitorContext ? JSON.stringify(conversation.visitorContext) : null,
          created_at: conversation.createdAt,
          updated_at: conversation.createdAt,
        })
        .onConflict((conflict) => conflict.columns(['workspace_id', 'id']).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return row;
      await recordStatus(trx, conversation, conversation.createdAt);
      if (onCreated !== undefined) await insertOutboxEvent(trx, onCreated, conversation.createdAt);
      return row;
    });
    if (inserted !== undefined) return { conversation: toRecord(inserted), created: true };
    const existing = await this.find(conversation.workspaceId, conversation.id);
    if (existing === undefined) throw new Error(`conversation ${conversation.id} vanished while it was being ensured`);
    return { conversation: existing, created: false };
  }

  async appendMessage(message: NewMessage, effects: AppendEffects = {}): Promise<AppendedMessage | undefined> {
    const { transition, titleIfUntitled: title, event, gap } = effects;
    return this.db.transaction().execute(async (trx) => {
      if (transition !== undefined) {
        // The check and the change are one statement: two messages at once make one transition.
        const changed = await trx
          .updateTable('conversation')
          .set({ status: transition.to })
          .where('workspace_id', '=', message.workspaceId)
          .where('id', '=', message.conversationId)
          .where('status', '=', transition.from)
          .returningAll()
          .executeTakeFirst();
        if (changed !== undefined) await recordStatus(trx, toRecord(changed), message.createdAt);
      }
      const row = await trx
        .updateTable('conversation')
        .set((eb) => ({
          updated_at: message.createdAt,
          title: title === undefined ? undefined : eb.case().when('title', '=', '').then(title).else(eb.ref('title')).end(),
        }))
        .where('workspace_id', '=', message.workspaceId)
        .where('id', '=', message.conversationId)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const appended = { message: await insertMessage(trx, message), conversation: toRecord(row) };
      if (gap !== undefined) await insertKnowledgeGap(trx, gap);
      // Events last: on PostgreSQL the outbox takes the workspace's event lock, held until commit.
      if (event !== undefined) await insertOutboxEvent(trx, event, message.createdAt);
      return appended;
    });
  }

  async rewriteAnswer(answer: AnswerRewrite, end?: AnswerEnd): Promise<MessageRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('message')
        .set({
          text: answer.text,
          sources: storedSources(answer.sources),
          usage: answer.usage === null ? null : JSON.stringify(answer.usage),
          model: answer.model,
          interrupted: answer.interrupted ? 1 : 0,
        })
        .where('workspace_id', '=', answer.workspaceId)
        .where('id', '=', answer.id)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined || end === undefined) return row && toMessageRecord(row);
      if (end.gap !== undefined) await insertKnowledgeGap(trx, end.gap);
      // Events last: on PostgreSQL the outbox takes the workspace's event lock, held until commit.
      await insertOutboxEvent(trx, end.event, end.at);
      return toMessageRecord(row);
    });
  }

  async update(
    workspaceId: string,
    id: string,
    changes: ConversationChanges,
    effects: ConversationEffects,
    at: string,
  ): Promise<ConversationUpdate | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL) so the metadata merge and the "did it change" checks see the latest row.
      let current = trx.selectFrom('conversation').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id);
      if (this.connection.capabilities.supportsRowLocks) current = current.forUpdate();
      const row = await current.executeTakeFirst();
      if (row === undefined) return undefined;
      const before = toRecord(row);
      const updated = await trx
        .updateTable('conversation')
        .set({
          status: changes.status,
          is_ai_enabled: changes.isAiEnabled === undefined ? undefined : changes.isAiEnabled ? 1 : 0,
          metadata: changes.metadata === undefined ? undefined : JSON.stringify({ ...before.metadata, ...changes.metadata }),
          contact_id: changes.contactId,
          assignee_id: changes.assigneeId,
          updated_at: at,
        })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = toRecord(updated);
      if (before.status !== after.status) await recordStatus(trx, after, at);
      const requested = before.status !== 'HUMAN_REQUESTED' && after.status === 'HUMAN_REQUESTED' ? effects.onHumanRequested : undefined;
      const switchedOff = before.isAiEnabled && !after.isAiEnabled ? effects.onAiSwitchedOff : undefined;
      const added = [requested, switchedOff].filter((message) => message !== undefined);
      for (const message of added) await insertMessage(trx, message);
      // Events last: on PostgreSQL the outbox takes the workspace's event lock, held until commit.
      if (effects.announce !== undefined) {
        for (const message of added) await insertOutboxEvent(trx, effects.announce(message), at);
      }
      if (before.status !== after.status && effects.onStatusChanged !== undefined) {
        await insertOutboxEvent(trx, effects.onStatusChanged, at);
      }
      const updatedEvent = effects.onUpdated?.({ before, after });
      if (updatedEvent !== undefined) await insertOutboxEvent(trx, updatedEvent, at);
      return { before, after };
    });
  }

  async bulkUpdateStatus(
    workspaceId: string,
    filter: ConversationFilter,
    status: ConversationStatus,
    at: string,
    onChanged?: (update: ConversationUpdate) => NewOutboxEvent,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const inScope = (eb: ConversationScope) => eb.and([eb('conversation.workspace_id', '=', workspaceId), matchesFilter(eb, filter)]);
      let changing = trx.selectFrom('conversation').selectAll().where(inScope).where('status', '!=', status);
      if (this.connection.capabilities.supportsRowLocks) changing = changing.forUpdate();
      const before = (await changing.execute()).map(toRecord);
      // One statement whatever their number (a row of values each would meet the dialects' parameter limits).
      await trx
        .insertInto('conversation_status_change')
        .columns(['workspace_id', 'conversation_id', 'status', 'changed_at'])
        .expression((eb) =>
          eb
            .selectFrom('conversation')
            .select(['conversation.workspace_id', 'conversation.id', sql<string>`${status}`.as('status'), sql<string>`${at}`.as('changed_at')])
            .where(inScope)
            .where('conversation.status', '!=', status),
        )
        .execute();
      const result = await trx
        .updateTable('conversation')
        .set((eb) => ({
          status,
          // Only a real change counts as activity (and moves the conversation up the list).
          updated_at: eb.case().when('status', '!=', status).then(at).else(eb.ref('updated_at')).end(),
        }))
        .where(inScope)
        .executeTakeFirst();
      if (onChanged !== undefined) {
        for (const conversation of before) {
          await insertOutboxEvent(trx, onChanged({ before: conversation, after: { ...conversation, status, updatedAt: at } }), at);
        }
      }
      return Number(result.numUpdatedRows);
    });
  }

  async markRead(
    workspaceId: string,
    id: string,
    unread: MessageMatch,
    onRead: (conversation: ConversationRecord) => NewOutboxEvent,
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('conversation').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
      if (row === undefined) return undefined;
      const result = await trx
        .updateTable('message')
        .set({ read: 1 })
        .where('workspace_id', '=', workspaceId)
        .where('conversation_id', '=', id)
        .where(matchesMessage(unread))
        .executeTakeFirst();
      const marked = Number(result.numUpdatedRows);
      if (marked > 0) await insertOutboxEvent(trx, onRead(toRecord(row)), new Date().toISOString());
      return marked;
    });
  }

  async countGroups<Group extends string>(
    workspaceId: string,
    filter: ConversationFilter,
    groups: Readonly<Partial<Record<Group, ConversationFilter>>>,
    unread: MessageMatch,
  ): Promise<Partial<Record<Group, GroupCount>>> {
    // Column aliases by position: group names are the caller's words, not SQL identifiers.
    const entries = Object.entries<ConversationFilter | undefined>(groups).flatMap(([group, condition]) =>
      condition === undefined ? [] : [[group, condition] as const],
    );
    const row = await this.db
      .selectFrom('conversation')
      .select((eb) => {
        const hasUnread = eb.exists(
          eb
            .selectFrom('message')
            .select('message.id')
            .whereRef('message.workspace_id', '=', 'conversation.workspace_id')
            .whereRef('message.conversation_id', '=', 'conversation.id')
            .where(matchesMessage(unread)),
        );
        return entries.flatMap(([, group], index) => {
          const inGroup = matchesFilter(eb, group);
          return [countWhen(inGroup).as(`total_${index}`), countWhen(eb.and([inGroup, hasUnread])).as(`unread_${index}`)];
        });
      })
      .where('conversation.workspace_id', '=', workspaceId)
      .where((eb) => matchesFilter(eb, filter))
      .executeTakeFirstOrThrow();
    const counts = row as Record<string, number | string | null>;
    const count = (column: string) => Number(counts[column] ?? 0);
    return Object.fromEntries(
      entries.map(([group], index) => [group, { total: count(`total_${index}`), unread: count(`unread_${index}`) }]),
    ) as Partial<Record<Group, GroupCount>>;
  }
}
