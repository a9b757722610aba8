import type http from 'node:http';
import https from 'node:https';
import Fastify, { LogController, type FastifyInstance, type FastifyServerFactory } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { LogLevel } from '../config.js';
import { randomToken } from '../domain/ids.js';
import type { Services } from '../domain/services.js';
import type { Store } from '../store/store.js';
import { registerBearerAuth } from './plugins/auth.js';
import { registerCors } from './plugins/cors.js';
import { dashboardRoutes } from './plugins/dashboard.js';
import { widgetScriptRoutes } from './plugins/widget-script.js';
import { PublicRoutes } from './plugins/public-routes.js';
import { limitCallers, registerRateLimitStore } from './plugins/rate-limits.js';
import cookie from '@fastify/cookie';
import { authRoutes } from './routes/auth.js';
import { modelRoutes } from './routes/models.js';
import { answerUnparsableRequest, registerErrorHandling, sendError } from './plugins/errors.js';
import { registerOpenApi } from './plugins/openapi.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { agentQueryRoutes } from './routes/agent-query.js';
import { agentRoutes } from './routes/agents.js';
import { analyticsRoutes } from './routes/analytics.js';
import { conversationRoutes } from './routes/conversations.js';
import { eventRoutes } from './routes/events.js';
import { visitorConversationRoutes } from './routes/visitor-conversation.js';
import { datasourceRoutes } from './routes/datasources.js';
import { datastoreRoutes } from './routes/datastores.js';
import { healthRoutes } from './routes/health.js';
import { keyRoutes } from './routes/keys.js';
import { memberRoutes } from './routes/members.js';
import { messageRoutes } from './routes/messages.js';
import { channelConnectionRoutes, channelInboundRoutes } from './routes/channels.js';
import { webhookRoutes } from './routes/webhooks.js';
import { savedReplyRoutes } from './routes/saved-replies.js';
import { labelRoutes } from './routes/labels.js';
import { workspaceRoutes } from './routes/workspace.js';
import { refuseNulCharacters } from './nul-characters.js';
import { REQUEST_LOG_OPTIONS, logRequests } from './request-log.js';
import { withoutApiPrefix } from './api-prefix.js';
import { SHARED_SCHEMAS } from './schemas.js';

export interface ServerDeps {
  services: Services;
  store: Store;
  /** The address people reach Parley at (PARLEY_PUBLIC_URL; else the one the server got, once it listens). */
  publicUrl: () => string;
  logLevel: LogLevel;
  /** Where log lines go (JSON, one per line). */
  logStream: LogStream;
  bodyLimitBytes: number;
  maxUploadBytes: number;
  /** Where uploads are streamed before they join the blob store. */
  tempDir: string;
  /** Redis for rate-limit counters shared between processes; null keeps them in memory. */
  redisUrl: string | null;
  /** Serve HTTPS with this certificate and key (PEM); plain HTTP when absent. */
  tls?: { cert: Buffer; key: Buffer };
  /** Which peers' X-Forwarded-* headers are believed (Fastify's `trustProxy`). */
  trustProxy: boolean | number | string;
  /** Bearer token of `GET /metrics`; no such route when null. */
  metricsToken: string | null;
}

/** The part of a writable stream the logger uses. */
export interface LogStream {
  write(line: string): void;
}

/** A route as registered: what the OpenAPI test compares the document against. */
export interface RegisteredRoute {
  method: string;
  url: string;
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
  }
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

/** An HTTPS server is an HTTP server with TLS underneath: Fastify drives both alike. */
const httpsServer =
  (tls: { cert: Buffer; key: Buffer }): FastifyServerFactory =>
  (handler) =>
    https.createServer(tls, handler) as unknown as http.Server;

/**
 * Request ids unique across processes and restarts without a random draw per request: a random
 * prefix per server and a counter.
 */
function requestIds(): () => string {
  const prefix = `req_${randomToken(6)}`;
  let counter = 0;
  return () => `${prefix}${(counter++).toString(36)}`;
}

/**
 * Bodies are validated strictly (a string is not a number); query strings and path parameters are
 * text on the wire, so there types are coerced.
 */
function createValidators() {
  const options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, discriminator: true } as const;
  const strict = addFormats.default(new Ajv.default({ ...options, coerceTypes: false }));
  const coercing = addFormats.default(new Ajv.default({ ...options, coerceTypes: 'array' }));
  return { strict, coercing };
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.logLevel, stream: deps.logStream, ...REQUEST_LOG_OPTIONS },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.bodyLimitBytes,
    // A hop count becomes proxy-addr's function form, which Fastify's types spell out.
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : deps.trustProxy,
    genReqId: requestIds(),
    ...(deps.tls === undefined ? {} : { serverFactory: httpsServer(deps.tls) }),
    clientErrorHandler: answerUnparsableRequest,
    // A bad escape or an overlong path parameter is refused by the router, before any hook: the same JSON error body.
    frameworkErrors: (error, request, reply) => sendError(request, reply, error),
    // An id is up to 200 characters (the Id schema checks it): percent-encoded, a client-made one is several times longer.
    routerOptions: { maxParamLength: 2_000 },
    // Every route also answers under /api (api-prefix.ts): one registration, routed without the prefix.
    rewriteUrl: (request) => withoutApiPrefix(request.url ?? '/'),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routes: RegisteredRoute[] = [];
  const publicRoutes = new PublicRoutes();
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    for (const method of methods) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, hidden: route.schema?.hide === true });
    }
    const resource = route.config?.publicResource;
    if (resource !== undefined) publicRoutes.add(route.url, resource, methods);
  });

  const validators = createValidators();
  for (const ajv of [validators.strict, validators.coercing]) ajv.addSchema([...SHARED_SCHEMAS]);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? validators.strict : validators.coercing).compile(schema));
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  // Older clients POST with no body at all where every field is optional: that is an empty object.
  // Callback hooks rather than async ones on every request: no promise to make and settle for each.
  app.addHook('preValidation', (request, _reply, done) => {
    const multipart = request.headers['content-type']?.startsWith('multipart/') ?? false;
    if (request.body === undefined && !multipart && request.routeOptions.schema?.body !== undefined) request.body = {};
    done();
  });
  app.addHook('preHandler', refuseNulCharacters);
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  logRequests(app);
  registerMetrics(app, { token: deps.metricsToken });
  registerErrorHandling(app);
  await registerSecurityHeaders(app, { https: deps.tls !== undefined });
  registerCors(app, publicRoutes, deps.services.publicAccess);
  await registerOpenApi(app);
  await app.register(healthRoutes, { store: deps.store });
  await app.register(dashboardRoutes);
  await app.register(widgetScriptRoutes);
  await app.register(channelInboundRoutes, { inbox: deps.services.channelInbox });

  await registerRateLimitStore(app, deps.redisUrl);
  await app.register(cookie);
  await app.register(authRoutes, {
    accounts: deps.services.accounts,
    accessTokens: deps.services.accessTokens,
    keys: deps.services.keys,
    workspaces: deps.services.workspaces,
    publicOrigin: () => new URL(deps.publicUrl()).origin,
  });

  // Everything in this scope needs a key or a member's token (public routes say so); health, docs and the
  // dashboard's own /auth endpoints above stay outside.
  await app.register(async (api) => {
    registerBearerAuth(api, deps.services);
    limitCallers(api, { settings: deps.services.rateLimits, access: deps.services.publicAccess });
    await api.register(keyRoutes, { keys: deps.services.keys });
    await api.register(agentRoutes, { agents: deps.services.agents });
    await api.register(modelRoutes, { models: deps.services.models, providers: deps.services.modelProviders });
    await api.register(agentQueryRoutes, {
      answers: deps.services.answers,
      visitorTokens: deps.services.visitorTokens,
    });
    await api.register(datastoreRoutes, { datastores: deps.services.datastores, search: deps.services.search });
    await api.register(datasourceRoutes, {
      datasources: deps.services.datasources,
      maxUploadBytes: deps.maxUploadBytes,
      tempDir: deps.tempDir,
    });
    await api.register(conversationRoutes, { conversations: deps.services.conversations, visitors: deps.services.visitorConversations });
    await api.register(eventRoutes, { eventStreams: deps.services.eventStreams });
    await api.register(visitorConversationRoutes, { visitors: deps.services.visitorConversations });
    await api.register(messageRoutes, { conversations: deps.services.conversations });
    await api.register(analyticsRoutes, { analytics: deps.services.analytics });
    await api.register(webhookRoutes, { webhooks: deps.services.webhooks });
    await api.register(savedReplyRoutes(deps.services.savedReplies));
    await api.register(labelRoutes(deps.services.labels));
    await api.register(workspaceRoutes, {
      workspaces: deps.services.workspaces,
      notifications: deps.services.notifications,
      rateLimits: deps.services.rateLimits,
    });
    await api.register(memberRoutes, { members: deps.services.members });
    await api.register(channelConnectionRoutes, { connections: deps.services.channelConnections });
  });

  return app;
}
