import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { isWorkspaceCaller, type WorkspaceCaller } from '../../domain/callers.js';
import type { EventStreamService } from '../../domain/event-streams.js';
import { EVENT_TYPES } from '../../events/event-types.js';
import { unauthorized } from '../../errors.js';
import { SseResponse } from '../sse-response.js';
import { errorResponses } from '../schemas.js';

/** Proxies close connections idle for a minute or so; a comment every 15 s keeps the stream open. */
const HEARTBEAT_MS = 15_000;
/** A client that does not read falls this far behind before it is cut off (it resumes with Last-Event-ID). */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

const StreamQuery = Type.Object({
  since: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Resume after this event id (Last-Event-ID wins)' })),
  types: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1000, description: `Comma-separated event types to receive: ${EVENT_TYPES.join(', ')}` }),
  ),
});

const workspaceCaller = (request: FastifyRequest): WorkspaceCaller => {
  if (!isWorkspaceCaller(request.caller)) throw unauthorized('This route needs an API key');
  return request.caller;
};

export const eventRoutes: FastifyPluginAsyncTypebox<{ eventStreams: EventStreamService; heartbeatMs?: number }> = async (
  app,
  { eventStreams, heartbeatMs = HEARTBEAT_MS },
) => {
  /** Ends each open stream: the server is closing, and an endless response would hold it open. */
  const closers = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of closers) close();
  });

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
        response: {
          200: { description: 'An endless text/event-stream', content: { 'text/event-stream': { schema: Type.String() } } },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const caller = workspaceCaller(request);
      const header = request.headers['last-event-id'];
      const after = (typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined) ?? request.query.since;
      const types = request.query.types?.split(',').map((type) => type.trim()).filter((type) => type !== '');
      const sse = new SseResponse(reply);
      let closed = false;
      const stream = await eventStreams.open(caller, { after, types }, (events) => {
        for (const event of events) sse.send({ id: event.id, event: event.type, data: JSON.stringify(event) });
        if (sse.backlog > MAX_BACKLOG_BYTES) sse.end();
      });
      sse.retry(3_000);
      sse.send({ event: 'ready', data: JSON.stringify({ resumed: stream.resumed }) });
      const heartbeat = setInterval(() => sse.comment('keep-alive'), heartbeatMs);
      const close = () => {
        if (closed) return;
        closed = true;
        closers.delete(close);
        clearInterval(heartbeat);
        stream.close();
        sse.end();
      };
      closers.add(close);
      reply.raw.on('close', close);
      if (sse.ended) close();
    },
  );
};
