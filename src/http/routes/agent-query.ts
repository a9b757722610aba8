import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AgentAnswer, AgentAnswerService, ExchangeIds } from '../../domain/agent-answers.js';
import { CHANNEL_INPUTS } from '../../domain/channels.js';
import { SseResponse } from '../sse-response.js';
import { ParleyError } from '../../errors.js';
import type { VisitorTokens } from '../../domain/visitor-tokens.js';
import { withBodyToken } from '../plugins/auth.js';
import { logFailure } from '../plugins/errors.js';
import { ClientId, IdParams, ModelName, Nullable, SearchFilters, StringEnum, errorResponses, filterLists } from '../schemas.js';

const penalty = (description: string) => Type.Optional(Type.Number({ minimum: -2, maximum: 2, description }));

const QuestionBody = Type.Object({
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
});

const Source = Type.Object({
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

const Answer = Type.Object(
  {
    answer: Type.Optional(Type.String()),
    conversationId: Type.String(),
    visitorId: Type.String(),
    messageId: Type.String({ description: 'The agent’s message; the human one when the agent is switched off' }),
    visitorToken: Type.String({
      description: 'Continues this conversation without an API key: send it as `Authorization: Bearer <visitorToken>`',
    }),
    sources: Type.Optional(
      Type.Array(Source, { description: 'The passages the answer cites, in the order of its numbers: its [n] is the n-th (issue 28)' }),
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
export type SourceBody = Static<typeof Source>;

/**
 * The hosted widget's framing: URI-encoded deltas, the whole answer URI-encoded too (that widget runs
 * `decodeURIComponent` on every event's data), then an empty-named [DONE] event.
 */
class AnswerStream {
  readonly #sse: SseResponse;

  constructor(reply: FastifyReply) {
    this.#sse = new SseResponse(reply);
  }

  get started(): boolean {
    return this.#sse.started;
  }

  delta(text: string): void {
    this.#sse.send({ event: 'answer', data: encodeURIComponent(text) });
  }

  finish(result: AgentAnswer | ExchangeIds): void {
    // `metadata`: the hosted widget merges an answer's metadata into its message; Parley's answers carry none.
    this.#sse.send({ event: 'endpoint_response', data: encodeURIComponent(JSON.stringify({ ...result, metadata: {} })) });
    this.#sse.send({ event: '', data: '[DONE]' });
    this.#sse.end();
  }

  fail(message: string): void {
    this.#sse.send({ data: `[ERROR]${message.replace(/\r?\n/g, ' ')}` });
    this.#sse.end();
  }
}

export interface AgentQueryRoutesOptions {
  answers: AgentAnswerService;
  visitorTokens: VisitorTokens;
}

export const agentQueryRoutes: FastifyPluginAsyncTypebox<AgentQueryRoutesOptions> = async (app, { answers, visitorTokens }) => {
  // A token in the body names the visitor before the rate limits count them (they run before the handler).
  app.addHook('preValidation', async (request) => {
    const token: unknown = (request.body as { visitorToken?: unknown } | undefined)?.visitorToken;
    if (typeof token === 'string') await withBodyToken(request, token, visitorTokens);
  });

  app.post(
    '/agents/:id/query',
    {
      config: {
        auth: 'optional',
        publicResource: 'agent',
        fieldPaths: { datasourceIds: 'body.filters.datasource_ids', customIds: 'body.filters.custom_ids' },
      },
      schema: {
        tags: ['agents'],
        summary: 'Ask the agent a question, optionally inside a conversation; streamed as server-sent events on request',
        description:
          'Public agents answer without a key. With `streaming: true` the answer arrives as `event: answer` frames ' +
          '(URI-encoded deltas), then `event: endpoint_response` (the JSON below with `metadata: {}`, URI-encoded), ' +
          'then `event: ` with `data: [DONE]`; the content type is exactly `text/event-stream`. An error after ' +
          'the first frame is sent as `data: [ERROR]<message>`.',
        params: IdParams,
        body: QuestionBody,
        response: { 200: Answer, ...errorResponses(402, 413, 415, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      // The body's visitorToken was resolved into request.caller before the rate limits ran.
      const { streaming, filters, visitorToken, visitorId, ...question } = request.body;
      const { caller } = request;
      const abort = new AbortController();
      // A client that goes away stops the model; what it had written is kept.
      request.raw.on('close', () => {
        if (!reply.raw.writableEnded) abort.abort();
      });
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const input = { ...question, visitorId: visitorId || undefined, ...filterLists(filters) };
      const origin = request.headers.origin;
      if (!streaming) return answers.ask(caller, request.params.id, input, { signal: abort.signal, origin });

      const stream = new AnswerStream(reply);
      try {
        const result = await answers.ask(caller, request.params.id, input, {
          signal: abort.signal,
          origin,
          onDelta: (delta) => stream.delta(delta),
        });
        stream.finish(result);
      } catch (error) {
        // Before the first byte the usual status and JSON body still apply.
        if (!stream.started) throw error;
        logFailure(request, error);
        stream.fail(ParleyError.isInstance(error) ? error.message : 'The answer could not be completed');
      }
      return reply;
    },
  );
};
