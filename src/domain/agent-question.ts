import type { AnswerSettings } from '../llm/chat/stream-answer.js';
import type { ChannelInput } from './channels.js';
import type { VisitorContextInput } from '../contract/answers.js';

/** A question put to an agent, with the overrides a caller with a key may send. */
export interface AgentQuestion extends AnswerSettings {
  query: string;
  conversationId?: string;
  visitorId?: string;
  channel?: ChannelInput;
  /** Replaces the agent's model for this question. */
  modelName?: string;
  systemPrompt?: string;
  /** Template with {query} and {context}; `promptTemplate` is its deprecated name. */
  userPrompt?: string;
  promptTemplate?: string;
  /** Deprecated and ignored. */
  promptType?: string;
  datasourceIds?: string[];
  customIds?: string[];
  /** What the widget tells of the visitor's page (kept with a new conversation). */
  context?: VisitorContextInput;
}
