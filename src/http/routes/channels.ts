import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChannelConnectionService } from '../../domain/channel-connections/channel-connections.js';
import type { ChannelInbox } from '../../domain/channel-connections/channel-inbox.js';
import { workspaceOf } from '../plugins/auth.js';
import { Id, IdParams, errorResponse, errorResponses } from '../schemas.js';
import { ChannelConnection, ConnectionTestResult, CreateChannelConnection, UpdateChannelConnection } from '../../contract/channel-connections.js';

const AgentParams = Type.Object({ agentId: Id });

/** An agent's connections to e-mail and messengers: owners and admins (and keys they made) only. */
export const channelConnectionRoutes: FastifyPluginAsyncTypebox<{ connections: ChannelConnectionService }> = async (app, { connections }) => {
  const tags = ['channels'];

  app.get(
    '/agents/:agentId/channels',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'The agent’s channel connections',
        params: AgentParams,
        response: { 200: Type.Array(ChannelConnection), ...errorResponses() },
      },
    },
    async (request) => connections.list(workspaceOf(request), request.params.agentId),
  );

  app.post(
    '/agents/:agentId/channels',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Connect the agent to a channel (e-mail, Telegram); secrets are sealed and never shown again',
        params: AgentParams,
        body: CreateChannelConnection,
        response: { 200: ChannelConnection, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => connections.create(workspaceOf(request), request.params.agentId, request.body),
  );

  app.get(
    '/channels/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'One channel connection and how it fares',
        params: IdParams,
        response: { 200: ChannelConnection, ...errorResponses() },
      },
    },
    async (request) => connections.get(workspaceOf(request), request.params.id),
  );

  app.patch(
    '/channels/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Change a connection’s settings (a secret left out stays), or switch it off and on',
        params: IdParams,
        body: UpdateChannelConnection,
        response: { 200: ChannelConnection, ...errorResponses(413, 415) },
      },
    },
    async (request) => connections.update(workspaceOf(request), request.params.id, request.body),
  );

  app.delete(
    '/channels/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Disconnect; the vendor is told to stop delivering',
        params: IdParams,
        response: { 200: ChannelConnection, ...errorResponses() },
      },
    },
    async (request) => connections.delete(workspaceOf(request), request.params.id),
  );

  app.post(
    '/channels/:id/test',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Log in at the vendor with the connection’s settings: ok, or why not',
        params: IdParams,
        response: { 200: ConnectionTestResult, ...errorResponses() },
      },
    },
    async (request) => connections.test(workspaceOf(request), request.params.id),
  );
};

/**
 * Where vendors deliver (Telegram's webhook): no API key, the connection's own secret instead, checked by
 * its connector on the raw body before anything is parsed. Registered outside the API's auth scope.
 */
export const channelInboundRoutes: FastifyPluginAsyncTypebox<{ inbox: ChannelInbox }> = async (app, { inbox }) => {
  // The body stays bytes here: a signature is over what was sent, not over what a parser made of it.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/channels/:id/inbound',
    {
      schema: {
        tags: ['channels'],
        summary: 'A vendor’s delivery to a connection (its inboundUrl), verified by the vendor’s own scheme',
        security: [],
        params: IdParams,
        response: {
          200: Type.Unknown({ description: '`{"ok": true}`, or what the vendor expects back (Slack’s url_verification challenge)' }),
          401: errorResponse(401),
          404: errorResponse(404),
          413: errorResponse(413),
          500: errorResponse(500),
        },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const answer = await inbox.deliver(request.params.id, { headers: request.headers, body, query: singleValues(request.query) });
      // What the vendor expects back (Slack's challenge), else a plain acknowledgement.
      if (answer === undefined) return reply.send({ ok: true });
      return reply.type(answer.contentType).send(answer.body);
    },
  );

  app.get(
    '/channels/:id/inbound',
    {
      schema: {
        tags: ['channels'],
        summary: 'A vendor checking a connection’s inboundUrl before it delivers (WhatsApp’s hub.challenge), answered with its challenge',
        security: [],
        params: IdParams,
        // Named for the document (a record has no parameters to list); any other parameter is passed on too.
        querystring: Type.Object(
          {
            'hub.mode': Type.Optional(Type.String({ description: 'WhatsApp: `subscribe`' })),
            'hub.verify_token': Type.Optional(Type.String({ description: 'WhatsApp: the connection’s verify token' })),
            'hub.challenge': Type.Optional(Type.String({ description: 'WhatsApp: echoed back when the token is right' })),
          },
          { additionalProperties: Type.String() },
        ),
        response: { 200: Type.String(), 401: errorResponse(401), 404: errorResponse(404), 500: errorResponse(500) },
      },
    },
    async (request, reply) => reply.type('text/plain; charset=utf-8').send(await inbox.handshake(request.params.id, request.query)),
  );
};

/** The inbound URL's query as the vendor was given it (Crisp's hook key): a repeated name is not a value of ours. */
function singleValues(query: unknown): Record<string, string> {
  if (typeof query !== 'object' || query === null) return {};
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
