import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VisitorConversationService } from '../../domain/visitor-conversations.js';
import { EVENT_STREAM_RESPONSE, LiveStreams, lastEventId } from '../live-streams.js';
import { ContactBody, RatingBody, StatusBody, VisitorTranscript, type VisitorStreamEvent } from '../../contract/visitor-conversation.js';
import { IdParams, errorResponses } from '../schemas.js';

const OPEN_TO_VISITORS = { auth: 'optional', publicResource: 'agent' } as const;
const TAGS = ['widget'];

/**
 * The chat widget's calls about the visitor's own conversation with a public agent: each needs the
 * conversation's visitor token (`Authorization: Bearer <visitorToken>`), from the agent's answers.
 */
export const visitorConversationRoutes: FastifyPluginAsyncTypebox<{ visitors: VisitorConversationService }> = async (app, { visitors }) => {
  const live = new LiveStreams(app, 'conversation');

  app.get(
    '/agents/:id/conversation',
    {
      config: OPEN_TO_VISITORS,
      schema: {
        tags: TAGS,
        summary: 'The visitor’s conversation with this agent, read back (visitor token)',
        params: IdParams,
        response: { 200: VisitorTranscript, ...errorResponses(429) },
      },
    },
    async (request) => visitors.transcript(request.caller, request.params.id, request.headers.origin),
  );

  app.get(
    '/agents/:id/conversation/events',
    {
      config: OPEN_TO_VISITORS,
      schema: {
        tags: TAGS,
        summary: 'Follow the visitor’s conversation live: new messages and status changes (visitor token)',
        description:
          '`event: message` (data: {id, from, text, createdAt, sender {type, name, mine}, notice?}, `notice` as in ' +
          'the conversation read back) and `event: status` ' +
          '(data: {status, isAiEnabled?}), each with its id; `Last-Event-ID` resumes after one. A `ready` event ' +
          'follows the backlog.',
        params: IdParams,
        produces: ['text/event-stream'],
        response: { 200: EVENT_STREAM_RESPONSE, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const after = lastEventId(request);
      await live.serve<VisitorStreamEvent>(
        reply,
        (deliver) => visitors.follow(request.caller, request.params.id, after, deliver, request.headers.origin),
        (event) => ({ id: event.id, event: event.type, data: JSON.stringify(event.data) }),
      );
    },
  );

  app.post(
    '/agents/:id/conversation/status',
    {
      config: OPEN_TO_VISITORS,
      schema: {
        tags: TAGS,
        summary: 'Ask for a person, or mark the conversation resolved (visitor token)',
        description: 'Emits `human-requested` or `conversation-resolved` (webhooks, e-mail) as a change through the API does.',
        params: IdParams,
        body: StatusBody,
        response: { 200: VisitorTranscript, ...errorResponses(413, 415, 429) },
      },
    },
    async (request) => visitors.setStatus(request.caller, request.params.id, request.body.status, request.headers.origin),
  );

  app.post(
    '/agents/:id/conversation/ratings',
    {
      config: OPEN_TO_VISITORS,
      schema: {
        tags: TAGS,
        summary: 'Rate one of the agent’s answers in the visitor’s conversation (visitor token)',
        params: IdParams,
        body: RatingBody,
        response: { 204: Type.Null(), ...errorResponses(413, 415, 429) },
      },
    },
    async (request, reply) => {
      await visitors.rate(request.caller, request.params.id, request.body.messageId, request.body.eval, request.headers.origin);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/agents/:id/conversation/contact',
    {
      config: OPEN_TO_VISITORS,
      schema: {
        tags: TAGS,
        summary: 'Say who the visitor is: the conversation’s contact (visitor token)',
        params: IdParams,
        body: ContactBody,
        response: { 204: Type.Null(), ...errorResponses(413, 415, 429) },
      },
    },
    async (request, reply) => {
      await visitors.identify(request.caller, request.params.id, request.body, request.headers.origin);
      return reply.code(204).send(null);
    },
  );
};
