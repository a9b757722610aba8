import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EventStreamService } from '../../domain/event-streams.js';
import { EVENT_TYPES, type EventEnvelope } from '../../contract/events.js';
import { workspaceCallerOf } from '../plugins/auth.js';
import { EVENT_STREAM_RESPONSE, LiveStreams, lastEventId } from '../live-streams.js';
import { errorResponses } from '../schemas.js';

const StreamQuery = Type.Object({
  since: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Resume after this event id (Last-Event-ID wins)' })),
  types: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1000, description: `Comma-separated event types to receive: ${EVENT_TYPES.join(', ')}` }),
  ),
});

export const eventRoutes: FastifyPluginAsyncTypebox<{ eventStreams: EventStreamService }> = async (app, { eventStreams }) => {
  const live = new LiveStreams(app, 'workspace');

  app.get(
    '/events/stream',
    {
      schema: {
        tags: ['events'],
        summary: 'Follow the workspace’s events live (server-sent events)',
        description:
          'Each event is sent with its id (`id:`), its type (`event:`) and, as `data:`, the envelope webhooks ' +
          'receive ({id, type, workspaceId, createdAt, data}). Reconnecting with `Last-Event-ID` (or `?since=`) ' +
          'resumes right after that event, in order and without repeats, as long as the outbox keeps it (a ' +
          'week after delivery). After the backlog, a `ready` event (no id) says the stream is live and whether ' +
          'it resumed; `resumed: false` means the id was unknown: refetch, then follow from now. Comments ' +
          'every 15 s keep it open.',
        querystring: StreamQuery,
        produces: ['text/event-stream'],
        response: { 200: EVENT_STREAM_RESPONSE, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const caller = workspaceCallerOf(request);
      const after = lastEventId(request, request.query.since);
      const types = request.query.types
        ?.split(',')
        .map((type) => type.trim())
        .filter((type) => type !== '');
      await live.serve<EventEnvelope>(
        reply,
        (deliver) => eventStreams.open(caller, { after, types }, deliver),
        (event) => ({ id: event.id, event: event.type, data: JSON.stringify(event) }),
      );
    },
  );
};
