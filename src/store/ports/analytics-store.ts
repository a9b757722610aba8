/** Analytics: figures over a workspace's conversations, and the questions its agents could not answer. */

/** Why an answer counts as a knowledge gap. */
export type KnowledgeGapReason =
  /** Retrieval found no passage at all. */
  | 'no_passage'
  /** The answerer said it found nothing (the built-in answerer's not-found sentence). */
  | 'not_found'
  /** The best passage retrieved scored below the threshold. */
  | 'low_score';

/** A visitor's question the agent could not answer from its datastores, recorded with the answer. */
export interface NewKnowledgeGap {
  id: string;
  workspaceId: string;
  agentId: string | null;
  conversationId: string;
  /** The agent's answer. */
  messageId: string;
  question: string;
  /** The question normalised so its repeats group together (`text/question-key.ts`). */
  questionKey: string;
  reason: KnowledgeGapReason;
  /** The best retrieval score, null when nothing was retrieved. */
  bestScore: number | null;
  createdAt: string;
}

/** What the figures are about: a half-open time range and, optionally, one agent and one channel. */
export interface AnalyticsScope {
  workspaceId: string;
  /** ISO 8601 UTC, inclusive. */
  from: string;
  /** ISO 8601 UTC, exclusive. */
  to: string;
  agentId?: string;
  channel?: string;
  /** true: the dashboard playground's conversations count too; left out otherwise (the team's own tests). */
  includePlayground?: boolean;
}

/** Conversations of one UTC day and channel. */
export interface DailyConversations {
  /** YYYY-MM-DD. */
  day: string;
  channel: string;
  conversations: number;
}

/** Figures over the conversations started in the scope. */
export interface ConversationFigures {
  conversations: number;
  /** Of them, those now RESOLVED. */
  resolved: number;
  /** Of them, those that were HUMAN_REQUESTED at any time (their status history), whatever they are now. */
  humanRequested: number;
  /** Their messages from visitors, the agent and members (system notices left out). */
  messages: number;
  /** Of them, those in which a member replied after the visitor's first message. */
  humanReplied: number;
  /** Median seconds from the visitor's first message to the first member reply, over those; null without any. */
  medianSecondsToHumanReply: number | null;
}

/** Ratings given to the agent answers written in the scope. */
export interface AnswerRatings {
  good: number;
  bad: number;
}

/** A datasource cited by agent answers written in the scope. */
export interface CitedDatasource {
  datasourceId: string;
  /** The current name; the name it was cited under when it no longer exists. */
  name: string;
  /** Null once the datasource is deleted. */
  datastoreId: string | null;
  /** Agent answers citing it. */
  citations: number;
}

/** One question the agent could not answer, with its repeats, asked of one agent in the scope. */
export interface KnowledgeGapGroup {
  questionKey: string;
  /** The latest wording asked. */
  question: string;
  agentId: string | null;
  /** Times it was asked. */
  count: number;
  firstAskedAt: string;
  lastAskedAt: string;
  /** The conversation it was last asked in. */
  conversationId: string;
}

export interface KnowledgeGapPage {
  /** Distinct questions (per agent) in the scope. */
  total: number;
  /** The most asked first (then the latest), at most the limit asked for. */
  groups: KnowledgeGapGroup[];
}

/**
 * Read-only figures computed in SQL over one workspace. Conversation figures cover the conversations
 * started in the scope; answer figures (ratings, citations, knowledge gaps) the agent answers written in
 * it. Agent and channel are the conversation's. Knowledge gaps are written with the agent's answer
 * (`ConversationStore.appendMessage`).
 */
export interface AnalyticsStore {
  /** Conversations started per UTC day and channel; days and channels without any are left out. */
  conversationsPerDay(scope: AnalyticsScope): Promise<DailyConversations[]>;
  /** The channels of the conversations started in the scope, whatever its channel (what a channel filter may pick), by name. */
  channelsInRange(scope: AnalyticsScope): Promise<string[]>;
  conversationFigures(scope: AnalyticsScope): Promise<ConversationFigures>;
  answerRatings(scope: AnalyticsScope): Promise<AnswerRatings>;
  /** The datasources cited most, most cited first (then by id), at most `limit`. */
  citedDatasources(scope: AnalyticsScope, limit: number): Promise<CitedDatasource[]>;
  /** Knowledge gaps grouped by agent and question key. */
  knowledgeGaps(scope: AnalyticsScope, limit: number): Promise<KnowledgeGapPage>;
}
