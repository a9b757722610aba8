import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { VisitorConversationService, VisitorEvent } from '../../domain/visitor-conversations.js';
import { EVENT_STREAM_RESPONSE, LiveStreams, lastEventId } from '../live-streams.js';
import { SourceLabels } from './conversation-schemas.js';
import { IdParams, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';

const Sender = Nullable(
  Type.Object({
    type: StringEnum(['user', 'visitor', 'agent'], { description: 'user: a person of the team; visitor: you; agent: the AI' }),
    name: Nullable(Type.String({ description: 'The person’s or the agent’s name; null for the visitor' })),
  }),
  { description: 'Null for system notices' },
);

const Notice = Type.Union(
  [
    Type.Object({ kind: Type.Literal('humanRequested'), email: Type.Optional(Type.String({ description: 'Where the team can also reply' })) }),
    Type.Object({ kind: Type.Literal('personJoined'), name: Type.String({ description: 'The member who took over' }) }),
    Type.Object({ kind: Type.Literal('aiSwitchedOff') }),
    Type.Object({ kind: Type.Literal('reopened') }),
  ],
  {
    description:
      'On system notices the server wrote: what it tells, by kind, so a client can word it in its visitor’s language ' +
      '(`text` is the English wording). humanRequested: a person will answer; personJoined: a member took over; ' +
      'aiSwitchedOff: the agent was switched off, nobody named; reopened: the visitor’s message reopened a resolved ' +
      'conversation. Show `text` for a kind you do not know.',
  },
);

export const VisitorTranscript = Type.Object({
  conversationId: Type.String(),
  status: StringEnum(['UNRESOLVED', 'RESOLVED', 'HUMAN_REQUESTED']),
  isAiEnabled: Type.Boolean({ description: 'False while a person answers instead of the agent' }),
  messages: Type.Array(
    Type.Object({
      id: Type.String(),
      from: StringEnum(['human', 'agent', 'system']),
      text: Type.String(),
      createdAt: Timestamp('When it was written'),
      sender: Sender,
      eval: Nullable(StringEnum(['GOOD', 'BAD'])),
      sources: SourceLabels,
      notice: Type.Optional(Notice),
    }),
    { description: 'Oldest first; newest first from GET /conversations/{id}, the hosted widget’s read' },
  ),
});

const StatusBody = Type.Object({
  status: StringEnum(['HUMAN_REQUESTED', 'RESOLVED'], { description: 'HUMAN_REQUESTED: talk to a person; RESOLVED: it is answered' }),
});

const RatingBody = Type.Object({
  messageId: Type.String({ minLength: 1, maxLength: 200, description: 'An agent answer of this conversation' }),
  eval: Nullable(StringEnum(['GOOD', 'BAD'], { description: 'null clears the rating' })),
});

const ContactBody = Type.Object(
  {
    firstName: Type.Optional(Type.String({ maxLength: 200 })),
    lastName: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
    phoneNumber: Type.Optional(
      Type.String({ pattern: '^\\+?[0-9 ()./-]{5,40}$', description: 'Digits with spaces, dots, dashes, brackets; a leading + for the country' }),
    ),
  },
  { description: 'Who the visitor says they are (the widget’s lead form); at least one field' },
);

const OPEN_TO_VISITORS = { auth: 'optional', publicResource: 'agent' } as const;
const TAGS = ['widget'];

/**
 * The chat widget's calls about the visitor's own conversation with a public agent: each needs the
 * conversation's visitor token (`Authorization: Bearer <visitorToken>`), from the agent's answers.
 */
export const visitorConversationRoutes: FastifyPluginAsyncTypebox<{ visitors: VisitorConversationService }> = async (
  app,
  { visitors },
) => {
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
      await live.serve<VisitorEvent>(
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
