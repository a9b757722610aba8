import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../schema.js';
import type {
  AnalyticsScope,
  AnalyticsStore,
  AnswerRatings,
  CitedDatasource,
  ConversationFigures,
  DailyConversations,
  KnowledgeGapPage,
  NewKnowledgeGap,
} from '../ports/analytics-store.js';
import { countWhen } from './count-when.js';
import { dialectFunctions, type DialectFunctions } from './dialect-functions.js';
import type { SqlConnection } from './sql-dialect.js';
import type { StoredAnswerSource } from './stored-answer-source.js';

/** Records a knowledge gap; shared so the agent's answer and its gap commit together. */
export async function insertKnowledgeGap(db: Kysely<Database>, gap: NewKnowledgeGap): Promise<void> {
  await db
    .insertInto('knowledge_gap')
    .values({
      id: gap.id,
      workspace_id: gap.workspaceId,
      agent_id: gap.agentId,
      conversation_id: gap.conversationId,
      message_id: gap.messageId,
      question: gap.question,
      question_key: gap.questionKey,
      reason: gap.reason,
      best_score: gap.bestScore,
      created_at: gap.createdAt,
    })
    .execute();
}

/**
 * The workspace's conversations of the scope's agent and channel, whenever they started; the playground's
 * only when the scope takes them in.
 */
function ofAgentAndChannel(eb: ExpressionBuilder<Database, 'conversation'>, scope: AnalyticsScope): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('conversation.workspace_id', '=', scope.workspaceId)];
  if (scope.agentId !== undefined) conditions.push(eb('conversation.agent_id', '=', scope.agentId));
  if (scope.channel !== undefined) conditions.push(eb('conversation.channel', '=', scope.channel));
  if (scope.includePlayground !== true) conditions.push(eb('conversation.playground', '=', 0));
  return eb.and(conditions);
}

/** The conversations the conversation figures are about: started in the range. */
const startedInScope = (scope: AnalyticsScope) => (eb: ExpressionBuilder<Database, 'conversation'>) =>
  eb.and([ofAgentAndChannel(eb, scope), eb('conversation.created_at', '>=', scope.from), eb('conversation.created_at', '<', scope.to)]);

/** The conversation (joined as `conversation`) was HUMAN_REQUESTED at some time, by its status history. */
const everHumanRequested = (eb: ExpressionBuilder<Database, 'conversation'>): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('conversation_status_change')
      .select('conversation_status_change.id')
      .whereRef('conversation_status_change.workspace_id', '=', 'conversation.workspace_id')
      .whereRef('conversation_status_change.conversation_id', '=', 'conversation.id')
      .where('conversation_status_change.status', '=', 'HUMAN_REQUESTED'),
  );

/** Messages written in the range, in conversations of the scope's agent and channel (joined as `conversation`). */
const writtenInScope = (scope: AnalyticsScope) => (eb: ExpressionBuilder<Database, 'message' | 'conversation'>) =>
  eb.and([
    eb('message.workspace_id', '=', scope.workspaceId),
    eb('message.created_at', '>=', scope.from),
    eb('message.created_at', '<', scope.to),
    ofAgentAndChannel(eb, scope),
  ]);

/** PostgreSQL returns counts (bigint) as text. */
const count = (value: number | string | null | undefined): number => Number(value ?? 0);

/** Seconds to the millisecond: the dialects' arithmetic on timestamps leaves float noise below it. */
const toMilliseconds = (seconds: number): number => Math.round(seconds * 1000) / 1000;

export class SqlAnalyticsStore implements AnalyticsStore {
  private readonly functions: DialectFunctions;

  constructor(private readonly connection: SqlConnection) {
    this.functions = dialectFunctions(connection.capabilities);
  }

  private get db() {
    return this.connection.db;
  }

  /** Messages joined with their conversation, for the figures filtered on both. */
  private messagesWithConversation() {
    return this.db
      .selectFrom('message')
      .innerJoin('conversation', (join) =>
        join.onRef('conversation.workspace_id', '=', 'message.workspace_id').onRef('conversation.id', '=', 'message.conversation_id'),
      );
  }

  async conversationsPerDay(scope: AnalyticsScope): Promise<DailyConversations[]> {
    // Timestamps are ISO 8601 UTC text: the first ten characters are the UTC day.
    const day = sql<string>`substr(${sql.ref('conversation.created_at')}, 1, 10)`;
    const rows = await this.db
      .selectFrom('conversation')
      .select((eb) => [day.as('day'), 'conversation.channel', eb.fn.countAll<number | string>().as('conversations')])
      .where(startedInScope(scope))
      .groupBy([day, 'conversation.channel'])
      .orderBy(day)
      .orderBy('conversation.channel')
      .execute();
    return rows.map((row) => ({ day: row.day, channel: row.channel, conversations: count(row.conversations) }));
  }

  async channelsInRange(scope: AnalyticsScope): Promise<string[]> {
    const rows = await this.db
      .selectFrom('conversation')
      .select('conversation.channel')
      .distinct()
      .where(startedInScope({ ...scope, channel: undefined }))
      .orderBy('conversation.channel')
      .execute();
    return rows.map((row) => row.channel);
  }

  async conversationFigures(scope: AnalyticsScope): Promise<ConversationFigures> {
    const statuses = await this.db
      .selectFrom('conversation')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('conversations'),
        countWhen(eb('conversation.status', '=', 'RESOLVED')).as('resolved'),
        countWhen(everHumanRequested(eb)).as('human_requested'),
      ])
      .where(startedInScope(scope))
      .executeTakeFirstOrThrow();
    const messages = await this.messagesWithConversation()
      .select((eb) => eb.fn.countAll<number | string>().as('messages'))
      .where(startedInScope(scope))
      .where('message.from', '!=', 'system')
      .executeTakeFirstOrThrow();
    const replies = await this.humanReplies(scope);
    return {
      conversations: count(statuses.conversations),
      resolved: count(statuses.resolved),
      humanRequested: count(statuses.human_requested),
      messages: count(messages.messages),
      ...replies,
    };
  }

  /**
   * Per conversation started in the scope, the wait from the visitor's first message to the first member
   * reply after it; their number and median (the middle wait, or the mean of the two middle ones), in SQL.
   */
  private async humanReplies(scope: AnalyticsScope): Promise<Pick<ConversationFigures, 'humanReplied' | 'medianSecondsToHumanReply'>> {
    const row = await this.db
      .with('asked', (db) =>
        db
          .selectFrom('conversation')
          .where(startedInScope(scope))
          .select((eb) => [
            'conversation.workspace_id',
            'conversation.id',
            eb
              .selectFrom('message')
              .select((inner) => inner.fn.min('message.created_at').as('first'))
              .whereRef('message.workspace_id', '=', 'conversation.workspace_id')
              .whereRef('message.conversation_id', '=', 'conversation.id')
              .where('message.from', '=', 'human')
              .where('message.member_id', 'is', null)
              .as('asked_at'),
          ]),
      )
      .with('answered', (db) =>
        db
          .selectFrom('asked')
          .where('asked.asked_at', 'is not', null)
          .select((eb) => [
            'asked.asked_at',
            eb
              .selectFrom('message')
              .select((inner) => inner.fn.min('message.created_at').as('first'))
              .whereRef('message.workspace_id', '=', 'asked.workspace_id')
              .whereRef('message.conversation_id', '=', 'asked.id')
              .where('message.from', '=', 'human')
              .where('message.member_id', 'is not', null)
              .whereRef('message.created_at', '>=', 'asked.asked_at')
              .as('replied_at'),
          ]),
      )
      .with('ranked', (db) =>
        db
          .selectFrom('answered')
          .where('answered.replied_at', 'is not', null)
          .select((eb) => {
            const wait = this.functions.secondsBetween(eb.ref('answered.asked_at'), eb.ref('answered.replied_at'));
            return [
              wait.as('wait'),
              eb.fn
                .agg<number | string>('row_number')
                .over((over) => over.orderBy(wait))
                .as('position'),
              eb.fn.countAll<number | string>().over().as('replied'),
            ];
          }),
      )
      .selectFrom('ranked')
      .select((eb) => [eb.fn.avg<number | string | null>('ranked.wait').as('median'), eb.fn.max('ranked.replied').as('replied')])
      // The middle row, or the two middle rows of an even count (integer division in both dialects).
      .where(sql<SqlBool>`${sql.ref('ranked.position')} in ((${sql.ref('ranked.replied')} + 1) / 2, (${sql.ref('ranked.replied')} + 2) / 2)`)
      .executeTakeFirst();
    const median = row?.median ?? null;
    return { humanReplied: count(row?.replied), medianSecondsToHumanReply: median === null ? null : toMilliseconds(Number(median)) };
  }

  async answerRatings(scope: AnalyticsScope): Promise<AnswerRatings> {
    const row = await this.messagesWithConversation()
      .select((eb) => [countWhen(eb('message.eval', '=', 'GOOD')).as('good'), countWhen(eb('message.eval', '=', 'BAD')).as('bad')])
      .where(writtenInScope(scope))
      .where('message.from', '=', 'agent')
      .where('message.eval', 'is not', null)
      .executeTakeFirstOrThrow();
    return { good: count(row.good), bad: count(row.bad) };
  }

  async citedDatasources(scope: AnalyticsScope, limit: number): Promise<CitedDatasource[]> {
    const field = (name: keyof StoredAnswerSource) => sql<string | null>`${sql.ref('cited.value')} ->> ${sql.lit(name)}`;
    const datasourceId = field('datasource_id');
    const top = this.messagesWithConversation()
      .crossJoin(this.functions.jsonArrayElements(sql.ref('message.sources')).as('cited'))
      .select((eb) => [
        datasourceId.as('datasource_id'),
        eb.fn.max(field('datasource_name')).as('cited_name'),
        eb.fn.countAll<number | string>().as('citations'),
      ])
      .where(writtenInScope(scope))
      .where('message.from', '=', 'agent')
      .where('message.sources', '!=', '[]')
      .where(datasourceId, 'is not', null)
      .groupBy(datasourceId)
      .orderBy('citations', 'desc')
      .orderBy(datasourceId)
      .limit(limit)
      .as('top');
    const rows = await this.db
      .selectFrom(top)
      .leftJoin('datasource', (join) => join.on('datasource.workspace_id', '=', scope.workspaceId).onRef('datasource.id', '=', 'top.datasource_id'))
      .select(['top.datasource_id', 'top.cited_name', 'top.citations', 'datasource.name', 'datasource.datastore_id'])
      .orderBy('top.citations', 'desc')
      .orderBy('top.datasource_id')
      .execute();
    return rows.map((row) => ({
      datasourceId: row.datasource_id ?? '',
      name: row.name ?? row.cited_name ?? '',
      datastoreId: row.datastore_id,
      citations: count(row.citations),
    }));
  }

  async knowledgeGaps(scope: AnalyticsScope, limit: number): Promise<KnowledgeGapPage> {
    const rows = await this.db
      .with('scoped', (db) =>
        db
          .selectFrom('knowledge_gap')
          .innerJoin('conversation', (join) =>
            join.onRef('conversation.workspace_id', '=', 'knowledge_gap.workspace_id').onRef('conversation.id', '=', 'knowledge_gap.conversation_id'),
          )
          .where('knowledge_gap.workspace_id', '=', scope.workspaceId)
          .where('knowledge_gap.created_at', '>=', scope.from)
          .where('knowledge_gap.created_at', '<', scope.to)
          .where((eb) => ofAgentAndChannel(eb, scope))
          .select((eb) => {
            // Repeats of one question to one agent.
            const sameQuestion = ['knowledge_gap.agent_id', 'knowledge_gap.question_key'] as const;
            return [
              'knowledge_gap.question_key',
              'knowledge_gap.question',
              'knowledge_gap.agent_id',
              'knowledge_gap.conversation_id',
              'knowledge_gap.created_at',
              eb.fn
                .agg<number | string>('row_number')
                .over((over) =>
                  over
                    .partitionBy([...sameQuestion])
                    .orderBy('knowledge_gap.created_at', 'desc')
                    .orderBy('knowledge_gap.id', 'desc'),
                )
                .as('recency'),
              eb.fn
                .countAll<number | string>()
                .over((over) => over.partitionBy([...sameQuestion]))
                .as('asked'),
              eb.fn
                .min('knowledge_gap.created_at')
                .over((over) => over.partitionBy([...sameQuestion]))
                .as('first_asked_at'),
            ];
          }),
      )
      .selectFrom('scoped')
      .where('scoped.recency', '=', 1)
      .select((eb) => [
        'scoped.question_key',
        'scoped.question',
        'scoped.agent_id',
        'scoped.conversation_id',
        'scoped.created_at',
        'scoped.asked',
        'scoped.first_asked_at',
        // Counted before the limit: every distinct question, not just the page.
        eb.fn.countAll<number | string>().over().as('total'),
      ])
      .orderBy('scoped.asked', 'desc')
      .orderBy('scoped.created_at', 'desc')
      .orderBy('scoped.question_key')
      .limit(limit)
      .execute();
    return {
      total: count(rows[0]?.total),
      groups: rows.map((row) => ({
        questionKey: row.question_key,
        question: row.question,
        agentId: row.agent_id,
        count: count(row.asked),
        firstAskedAt: row.first_asked_at,
        lastAskedAt: row.created_at,
        conversationId: row.conversation_id,
      })),
    };
  }
}
