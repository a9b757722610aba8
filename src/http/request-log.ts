import type { FastifyInstance, FastifyRequest } from 'fastify';
import { onBehalfOf } from '../observability/request-context.js';

export const REDACTED = '[REDACTED]';

/**
 * Words that name a credential, once a parameter's name is lower-cased and stripped of `_`, `-` and the
 * like: `visitorToken`, `visitor_token` and `VISITOR-TOKEN` are all `visitortoken`. Keys belong in the
 * Authorization header and are refused elsewhere, but a client that tries still sends its secret in the
 * URL, and the URL is what the request log line records.
 */
const CREDENTIAL_WORDS: ReadonlySet<string> = new Set([
  'key',
  'auth',
  'authorization',
  'session',
  'sessionid',
  'signature',
  'sig',
  'credential',
  'credentials',
  'pass',
  'pwd',
]);
const CREDENTIAL_ENDINGS = /(token|secret|password|passwd|apikey|accesskey|privatekey)$/;

/** How a parameter's name reads once decoded; an undecodable name is taken as written. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * Whether a parameter's name says it carries a credential, in any spelling: each part of `auth[api_key]`,
 * `token[]` or `token[0]` is read, so brackets hide nothing.
 */
function isCredentialName(raw: string): boolean {
  return decodedName(raw)
    .split(/[[\]]/)
    .map((part) => part.replace(/[^a-z0-9]/g, ''))
    .some((word) => CREDENTIAL_WORDS.has(word) || CREDENTIAL_ENDINGS.test(word));
}

/** Per route pattern: how many segments it has and which of them are credential-named parameters. */
const credentialSegmentsOf = new Map<string, { count: number; secret: ReadonlySet<number> }>();

/** Worked out once per route pattern, the first time a request of it is logged. */
function credentialSegments(route: string): { count: number; secret: ReadonlySet<number> } {
  let known = credentialSegmentsOf.get(route);
  if (known === undefined) {
    const patterns = route.split('/');
    const secret = new Set(patterns.flatMap((pattern, index) => (isCredentialName(/^:(\w+)/.exec(pattern)?.[1] ?? '') ? [index] : [])));
    known = { count: patterns.length, secret };
    credentialSegmentsOf.set(route, known);
  }
  return known;
}

/**
 * The path with each segment that fills a credential-named parameter of its route (`/auth/invitations/:token`)
 * replaced by `[REDACTED]`.
 */
function redactPath(path: string, route: string | undefined): string {
  if (route === undefined || !route.includes(':')) return path;
  const { count, secret } = credentialSegments(route);
  if (secret.size === 0) return path;
  const segments = path.split('/');
  // The route is matched at the path's end: a prefix the router stripped (`/api`) comes before it.
  const offset = segments.length - count;
  if (offset < 0) return path;
  return segments.map((segment, index) => (secret.has(index - offset) ? REDACTED : segment)).join('/');
}

/**
 * `url` with every credential-carrying path segment (by its route) and query parameter value replaced
 * by `[REDACTED]`; the rest is kept as sent (not re-encoded), so the line still shows what the client asked for.
 */
export function redactUrl(url: string, route?: string): string {
  const queryStart = url.indexOf('?');
  const path = redactPath(queryStart === -1 ? url : url.slice(0, queryStart), route);
  if (queryStart === -1) return path;
  const fragmentStart = url.indexOf('#', queryStart);
  const queryEnd = fragmentStart === -1 ? url.length : fragmentStart;
  const pairs = url.slice(queryStart + 1, queryEnd).split('&');
  const redacted = pairs.map((pair) => {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    return isCredentialName(name) ? `${name}=${REDACTED}` : pair;
  });
  return `${path}?${redacted.join('&')}${url.slice(queryEnd)}`;
}

/** Fastify's request fields, with the URL redacted; headers are never among them. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    // As the client sent it, /api prefix included (the router reads it without: api-prefix.ts).
    url: redactUrl(request.originalUrl, request.routeOptions.url),
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
    paths: [
      'headers.authorization',
      'headers.cookie',
      'headers["set-cookie"]',
      '*.headers.authorization',
      '*.headers.cookie',
      '*.headers["set-cookie"]',
    ],
    censor: REDACTED,
  },
};
