import type { AgentRecord } from '../store/store.js';
import type { AgentQuestion } from './agent-question.js';
import { invalid, type FieldProblem } from '../errors.js';

/** Question fields that would change what the agent is: a caller without a key gets the agent as configured. */
const OVERRIDES = [
  'modelName',
  'temperature',
  'topP',
  'maxTokens',
  'presencePenalty',
  'frequencyPenalty',
  'systemPrompt',
  'userPrompt',
  'promptTemplate',
  'promptType',
  'channel',
  'datasourceIds',
  'customIds',
] as const satisfies readonly (keyof AgentQuestion)[];

/**
 * Older widgets send some of the agent's own settings with every question; a value equal to the agent's
 * changes nothing, so it is let through rather than breaking them.
 */
function isAgentsOwnValue(agent: AgentRecord, field: (typeof OVERRIDES)[number], value: unknown): boolean {
  switch (field) {
    case 'modelName':
      return value === agent.modelName;
    case 'temperature':
      return value === agent.temperature;
    case 'systemPrompt':
      return value === (agent.systemPrompt ?? '');
    case 'userPrompt':
    case 'promptTemplate':
      return value === agent.userPrompt;
    case 'channel':
      // The channel of every question without a key; the hosted widget names it.
      return value === 'website';
    default:
      return false;
  }
}

export interface PublicQuestionLimits {
  /** Longest question a caller without a key may ask, in characters. */
  maxQueryChars: number;
}

/**
 * A question from a caller without a key, reduced to what such a caller may decide: the words of the
 * question and which conversation it asks in (whether that one is theirs is {@link keylessExchange}'s to
 * say). Overrides are refused (400, naming them).
 */
export function publicQuestion(agent: AgentRecord, question: AgentQuestion, limits: PublicQuestionLimits): AgentQuestion {
  const refused: FieldProblem[] = OVERRIDES.filter((field) => question[field] !== undefined && !isAgentsOwnValue(agent, field, question[field])).map(
    (field) => ({ field, message: 'can only be set with an API key' }),
  );
  if (refused.length > 0) {
    throw invalid(`Without an API key the agent answers as configured: remove ${refused.map((p) => p.field).join(', ')}`, refused);
  }
  if (question.query.length > limits.maxQueryChars) {
    throw invalid(`Questions are limited to ${limits.maxQueryChars} characters`, [
      { field: 'query', message: `must have at most ${limits.maxQueryChars} characters` },
    ]);
  }
  return {
    query: question.query,
    conversationId: question.conversationId,
    visitorId: question.visitorId,
    channel: 'website',
    ...(question.context === undefined ? {} : { context: question.context }),
  };
}
