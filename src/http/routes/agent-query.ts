import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AgentAnswer, AgentAnswerService, ExchangeIds } from '../../domain/agent-answers.js';
import { SseResponse } from '../sse-response.js';
import { ParleyError } from '../../errors.js';
import type { VisitorTokens } from '../../domain/visitor-tokens.js';
import type { AnswerSourceRecord } from '../../store/store.js';
import { withBodyToken } from '../plugins/auth.js';
import { logFailure } from '../plugins/errors.js';
import { IdParams, errorResponses, filterLists } from '../schemas.js';
import { Answer, Question, type AnswerSourceBody } from '../../contract/answers.js';
import { answerFrames } from '../../contract/answer-stream.js';

/** An answer's source as the API shows it (the hosted service's field names); absent fields left out. */
export const toSourceBody = (source: AnswerSourceRecord): AnswerSourceBody => ({
  chunk_id: source.chunkId,
  datasource_id: source.datasourceId,
  datasource_name: source.datasourceName,
  datasource_type: source.datasourceType,
  source_url: source.sourceUrl,
  ...(source.customId === null ? {} : { custom_id: source.customId }),
  ...(source.mimeType === null ? {} : { mime_type: source.mimeType }),
  ...(source.pageNumber === null ? {} : { page_number: source.pageNumber }),
  ...(source.totalPages === null ? {} : { total_pages: source.totalPages }),
  score: source.score,
  text: source.text,
});

/** The answer as the API shows it: its sources in the API's shape. */
const toAnswerBody = (result: AgentAnswer | ExchangeIds) => ('sources' in result ? { ...result, sources: result.sources.map(toSourceBody) } : result);

/** An answer sent as it is written, in the agent-answer framing (src/contract/answer-stream.ts). */
class AnswerStream {
  readonly #sse: SseResponse;

  constructor(reply: FastifyReply) {
    this.#sse = new SseResponse(reply);
  }

  get started(): boolean {
    return this.#sse.started;
  }

  delta(text: string): void {
    this.#sse.send(answerFrames.delta(text));
  }

  finish(result: AgentAnswer | ExchangeIds): void {
    // `metadata`: the hosted widget merges an answer's metadata into its message; Parley's answers carry none.
    this.#sse.send(answerFrames.response({ ...toAnswerBody(result), metadata: {} }));
    this.#sse.send(answerFrames.done());
    this.#sse.end();
  }

  fail(message: string): void {
    this.#sse.send(answerFrames.error(message));
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
        body: Question,
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
      if (!streaming) return toAnswerBody(await answers.ask(caller, request.params.id, input, { signal: abort.signal, origin }));

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
