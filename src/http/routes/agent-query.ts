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
      'Absent: a new conversation. With an API key an unknown id creates it (ids are unique per workspace); ' +
        'without a key only the visitor token’s own conversation can be continued',
    ),
  ),
  visitorId: Type.Optional(ClientId('Who asks; absent: a new visitor (without a key: the visitor token’s own)')),
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
    sources: Type.Optional(Type.Array(Source, { description: 'One per datasource (its best chunk), best first' })),
    usage: Type.Optional(Type.Object({ promptTokens: Type.Integer(), completionTokens: Type.Integer(), totalTokens: Type.Integer() })),
  },
  { description: 'Without answer, sources and usage when the agent is switched off in this conversation' },
);

export type AnswerBody = Static<typeof Answer>;
export type SourceBody = Static<typeof Source>;

/** The older widget's framing: URI-encoded deltas, the whole answer, then an empty-named [DONE] event. */
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
    this.#sse.send({ event: 'endpoint_response', data: JSON.stringify(result) });
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
          '(URI-encoded deltas), then `event: endpoint_response` (the JSON below), then `data: [DONE]`; an error after ' +
          'the first frame is sent as `data: [ERROR]<message>`.',
        params: IdParams,
        body: QuestionBody,
        response: { 200: Answer, ...errorResponses(402, 413, 415, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      // The body's visitorToken was resolved into request.caller before the rate limits ran.
      const { streaming, filters, visitorToken, ...question } = request.body;
      const { caller } = request;
      const abort = new AbortController();
      // A client that goes away stops the model; what it had written is kept.
      request.raw.on('close', () => {
        if (!reply.raw.writableEnded) abort.abort();
      });
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const input = { ...question, ...filterLists(filters) };
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
