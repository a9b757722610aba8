import { Type, type Static } from '@sinclair/typebox';
import { CHANNEL_INPUTS } from './channels.js';
import { Nullable, StringEnum } from './json-schema.js';
import { ModelName } from './models.js';
import { ClientId, SearchFilters } from './shared-schemas.js';

/** A passage an agent answer cites, in the API's snake_case (the hosted service's shape). */
export const AnswerSource = Type.Object({
  chunk_id: Type.String(),
  datasource_id: Type.String(),
  datasource_name: Type.String(),
  datasource_type: Type.String(),
  source_url: Nullable(Type.String()),
  custom_id: Type.Optional(Type.String()),
  mime_type: Type.Optional(Type.String()),
  page_number: Type.Optional(Type.Integer()),
  total_pages: Type.Optional(Type.Integer()),
  score: Type.Number(),
  text: Type.String(),
});

/** `POST /agents/{id}/query`: the answer, or the last frame of a streamed one (answer-stream.ts). */
export const Answer = Type.Object(
  {
    answer: Type.Optional(Type.String()),
    conversationId: Type.String(),
    visitorId: Type.String(),
    messageId: Type.String({ description: 'The agent’s message; the human one when the agent is switched off' }),
    visitorToken: Type.String({
      description: 'Continues this conversation without an API key: send it as `Authorization: Bearer <visitorToken>`',
    }),
    sources: Type.Optional(
      Type.Array(AnswerSource, { description: 'The passages the answer cites, in the order of its numbers: its [n] is the n-th' }),
    ),
    usage: Type.Optional(Type.Object({ promptTokens: Type.Integer(), completionTokens: Type.Integer(), totalTokens: Type.Integer() })),
    model: Type.Optional(
      Type.Object(
        {
          name: Type.String({ description: 'The model name asked for' }),
          provider: StringEnum(['openai', 'openai-compatible', 'anthropic', 'local']),
          model: Type.String({ description: 'The provider’s model id' }),
          providerName: Nullable(Type.String({ description: 'The workspace’s provider; null: the operator’s configuration' })),
        },
        { description: 'Which model answered; only for callers with a key or a member’s token' },
      ),
    ),
  },
  { description: 'Without answer, sources and usage when the agent is switched off in this conversation' },
);

export type AnswerBody = Static<typeof Answer>;
export type AnswerSourceBody = Static<typeof AnswerSource>;

const penalty = (description: string) => Type.Optional(Type.Number({ minimum: -2, maximum: 2, description }));

/** `POST /agents/{id}/query`: a question, and what may change how this one answer is made. */
/** Caps on what the widget tells of the visitor's page (longer values are cut, not refused). */
export const VISITOR_CONTEXT_LIMITS = { url: 2_000, language: 35, userAgent: 512 } as const;

/**
 * What the chat widget tells of the page a conversation starts on, for the members beside the thread: kept
 * with a new conversation only (as text; URLs other than http(s) and malformed languages are dropped).
 */
export const VisitorContextBody = Type.Object(
  {
    pageUrl: Type.Optional(Type.String({ maxLength: 8_192, description: 'The page the widget runs on' })),
    referrer: Type.Optional(Type.String({ maxLength: 8_192, description: 'The page the visitor came from' })),
    language: Type.Optional(Type.String({ maxLength: 100, description: 'The browser’s language, e.g. en-GB' })),
    userAgent: Type.Optional(Type.String({ maxLength: 2_048, description: 'The browser’s user agent' })),
  },
  { additionalProperties: false },
);

export const Question = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S', description: 'The question put to the agent' }),
  conversationId: Type.Optional(
    ClientId(
      'Absent: a new conversation. An unknown id creates it (ids are unique per workspace; without a key it must ' +
        'have 20 to 128 letters, digits, - or _). Without a key an existing one must be the caller’s own: send its ' +
        'visitor token, or the visitorId it was started with',
    ),
  ),
  visitorId: Type.Optional(
    Type.Union([ClientId('Who asks'), Type.Null(), Type.Literal('')], {
      description:
        'Who asks; absent, null or empty: a new visitor. Without a key: the visitor token’s own, else the visitorId ' +
        'of an earlier answer (it continues that visitor’s conversations; any other id is replaced by a new one)',
    }),
  ),
  visitorToken: Type.Optional(
    Type.String({ maxLength: 4096, description: 'The token of an earlier answer, if the client cannot send it as the Bearer credential' }),
  ),
  channel: Type.Optional(StringEnum(CHANNEL_INPUTS, { description: 'Defaults to api (website without a key)' })),
  streaming: Type.Optional(Type.Boolean({ description: 'Answer as server-sent events' })),
  modelName: Type.Optional(ModelName('Replaces the agent’s model for this query')),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Nucleus sampling mass; change this or temperature, not both' })),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 200_000, description: 'Most tokens the answer may have' })),
  presencePenalty: penalty('Positive values favour new topics'),
  frequencyPenalty: penalty('Positive values lower repetition'),
  systemPrompt: Type.Optional(Type.String({ maxLength: 100_000 })),
  userPrompt: Type.Optional(Type.String({ maxLength: 100_000, description: 'Template; every {query} and {context} is replaced' })),
  promptTemplate: Type.Optional(Type.String({ maxLength: 100_000, description: 'Deprecated: use userPrompt' })),
  promptType: Type.Optional(Type.String({ maxLength: 100, description: 'Deprecated and ignored' })),
  filters: Type.Optional(SearchFilters),
  context: Type.Optional(VisitorContextBody),
});

export type VisitorContextInput = Static<typeof VisitorContextBody>;

export type QuestionBody = Static<typeof Question>;
