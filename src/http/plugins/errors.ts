import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../../domain/ids.js';
import { ParleyError, invalid, type ErrorKind, type FieldProblem } from '../../domain/errors.js';
import { MAX_JSON_DEPTH, isNestedTooDeep } from '../json-depth.js';

/** The one place where an error becomes a status code and the JSON body clients read. */
const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthorized: 401,
  usage_limit: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  dependency_failed: 502,
  unavailable: 503,
};

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'USAGE_LIMIT',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMIT',
  503: 'UNAVAILABLE',
};

type ValidationError = NonNullable<FastifyError['validation']>[number];

/** `body.temperature: must be <= 1`, with the missing property named for `required`. */
function toFieldProblem(context: string | undefined, error: ValidationError): FieldProblem {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  // `required` names the missing property, `discriminator` the tag whose value picks the schema.
  const missing =
    error.keyword === 'required'
      ? String(error.params.missingProperty)
      : error.keyword === 'discriminator'
        ? String(error.params.tag)
        : undefined;
  const field = [context, path, missing].filter((part) => part !== undefined && part !== '').join('.');
  const allowed = error.params.allowedValues;
  const message = Array.isArray(allowed)
    ? `${error.message ?? 'is invalid'}: ${allowed.join(', ')}`
    : (error.message ?? 'is invalid');
  return { field: field || (context ?? 'request'), message };
}

interface ErrorReply {
  status: number;
  code: string;
  message: string;
  details?: readonly FieldProblem[];
}

function describe(error: FastifyError | ParleyError): ErrorReply {
  if (ParleyError.isInstance(error)) {
    return { status: STATUS_BY_KIND[error.kind], code: error.code, message: error.message, details: error.details };
  }
  if (error.validation !== undefined) {
    const details = error.validation.map((problem) => toFieldProblem(error.validationContext, problem));
    const fields = details.map((detail) => detail.field).join(', ');
    return { status: 400, code: 'INVALID_REQUEST', message: `Invalid request: check ${fields}`, details };
  }
  const status = error.statusCode ?? 500;
  const code = CODE_BY_STATUS[status];
  // Anything not known to be the client's fault is ours, and its text may leak internals.
  if (status >= 500 || code === undefined) {
    return { status: 500, code: 'INTERNAL', message: 'Something went wrong on our side; quote the requestId if you report it' };
  }
  return { status, code, message: error.message };
}

/**
 * Logs a failure whose text the caller is not shown: ours, or a dependency's, whose own answer (a model
 * provider's status and text) rides on the error's cause.
 */
export function logFailure(request: FastifyRequest, error: unknown): void {
  const cause = ParleyError.isInstance(error) ? error.cause : undefined;
  if (cause !== undefined) request.log.error({ err: cause, code: (error as ParleyError).code }, 'a dependency failed');
  else request.log.error({ err: error }, 'request failed');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: FastifyError | ParleyError): FastifyReply {
  const { status, code, message, details } = describe(error);
  const parley = ParleyError.isInstance(error) ? error : undefined;
  if (status === 500 || parley?.cause !== undefined) logFailure(request, error);
  if (parley?.retryAfterSeconds !== undefined) reply.header('retry-after', String(parley.retryAfterSeconds));
  if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ error: code, message, ...(details && details.length > 0 ? { details } : {}), requestId: request.id });
}

/**
 * JSON bodies: an empty body is no body (clients send `Content-Type: application/json` with nothing on
 * GET and DELETE), and malformed or too deeply nested JSON is a clear 400.
 */
function parseJsonBody(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(null, undefined);
  if (isNestedTooDeep(body)) {
    return done(invalid(`The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, [
      { field: 'body', message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` },
    ]));
  }
  try {
    done(null, JSON.parse(body));
  } catch (error) {
    done(invalid(`The body is not valid JSON: ${(error as Error).message}`));
  }
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  app.setErrorHandler((error: FastifyError | ParleyError, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new ParleyError('not_found', 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`),
    ),
  );
}

/** A request Node's HTTP parser rejects never reaches Fastify; it still gets the usual JSON error body. */
export function answerUnparsableRequest(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    error: tooLarge ? 'PAYLOAD_TOO_LARGE' : 'INVALID_REQUEST',
    message: tooLarge ? 'The request headers are too large' : 'The request is not valid HTTP',
    requestId: `req_${randomToken(9)}`,
  });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
