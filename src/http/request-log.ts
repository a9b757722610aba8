import type { FastifyInstance, FastifyRequest } from 'fastify';
import { onBehalfOf } from '../observability/request-context.js';

export const REDACTED = '[REDACTED]';

/**
 * Query parameters that carry credentials (compared in lower case). Keys belong in the Authorization
 * header and are refused elsewhere, but a client that tries still sends its secret in the URL, and
 * the URL is what the request log line records.
 */
const SECRET_QUERY_PARAMETERS: ReadonlySet<string> = new Set(['api_key', 'apikey', 'key', 'token', 'access_token', 'visitor_token']);

/** How a query parameter's name reads once decoded; an undecodable name is taken as written. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * `url` with the value of every credential-carrying query parameter replaced by `[REDACTED]`; the rest
 * is kept as sent (not re-encoded), so the line still shows what the client asked for.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const fragmentStart = url.indexOf('#', queryStart);
  const queryEnd = fragmentStart === -1 ? url.length : fragmentStart;
  const pairs = url.slice(queryStart + 1, queryEnd).split('&');
  const redacted = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    return SECRET_QUERY_PARAMETERS.has(decodedName(name)) ? `${name}=${REDACTED}` : pair;
  });
  return `${url.slice(0, queryStart + 1)}${redacted.join('&')}${url.slice(queryEnd)}`;
}

/** Fastify's request fields, with the URL redacted; headers are never among them. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    // As the client sent it, /api prefix included (the router reads it without: api-prefix.ts).
    url: redactUrl(request.originalUrl),
    remoteAddress: request.ip,
  };
}

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One line per request, written when the answer has gone: request id (the child logger's `reqId`),
 * method, URL, route, status, duration and the caller's workspace; never headers or bodies. Fastify's
 * own pair of lines ("incoming request", "request completed") is turned off in its place: at thousands
 * of requests a second the log is a good part of a request's cost.
 */
export function logRequests(app: FastifyInstance): void {
  // A request that may change something runs on its own behalf: jobs and events it writes carry its id.
  // Reads write neither, and carrying a context through every promise of a read costs about a quarter of
  // a key-authenticated GET's throughput on Node 20 (measured with autocannon beside the bare route).
  app.addHook('onRequest', (request, _reply, done) => (READS.has(request.method) ? done() : onBehalfOf(request.id, done)));
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      {
        req: request,
        route: request.routeOptions.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        workspaceId: request.workspaceId ?? undefined,
      },
      'request completed',
    );
    done();
  });
}

/**
 * What the logger is told so no credential reaches a log line: the request serializer above, and
 * should anything log headers, their Authorization and cookies censored wherever they sit.
 */
export const REQUEST_LOG_OPTIONS = {
  serializers: { req: serializeRequest },
  redact: {
    paths: ['headers.authorization', 'headers.cookie', 'headers["set-cookie"]', '*.headers.authorization', '*.headers.cookie', '*.headers["set-cookie"]'],
    censor: REDACTED,
  },
};
