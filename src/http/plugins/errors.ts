import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../../domain/ids.js';
import { ERRORS, ParleyError, invalid, type ErrorCode, type FieldProblem } from '../../errors.js';
import { MAX_JSON_DEPTH, isNestedTooDeep } from '../json-depth.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Where a use case's field names were sent, when not at the top level of the body or query string
     * (`{url: 'body.config.source_url'}`): the domain names its own fields, this route says where they were.
     */
    fieldPaths?: Readonly<Record<string, string>>;
  }
}

/**
 * Fastify's and its plugins' own client errors that can reach the handler, by their code: the only foreign
 * errors whose status is believed. Any other error that is not a ParleyError is ours: 500, logged.
 */
const FOREIGN_CLIENT_ERRORS: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_REQUEST',
  FST_ERR_BAD_URL: 'INVALID_REQUEST',
  FST_ERR_MAX_PARAM_LENGTH: 'INVALID_REQUEST',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'INVALID_REQUEST',
  FST_ERR_ROUTE_MISSING_CONTENT: 'INVALID_REQUEST',
  FST_ERR_NOT_FOUND: 'NOT_FOUND',
};

type ValidationError = NonNullable<FastifyError['validation']>[number];

/** `body.temperature: must be <= 1`, with the missing property named for `required`. */
function toFieldProblem(context: string | undefined, error: ValidationError): FieldProblem {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  // `required` names the missing property, `discriminator` the tag whose value picks the schema.
  const missing =
    error.keyword === 'required' ? String(error.params.missingProperty) : error.keyword === 'discriminator' ? String(error.params.tag) : undefined;
  const field = [context, path, missing].filter((part) => part !== undefined && part !== '').join('.');
  const allowed = error.params.allowedValues;
  const message = Array.isArray(allowed) ? `${error.message ?? 'is invalid'}: ${allowed.join(', ')}` : (error.message ?? 'is invalid');
  return { field: field || (context ?? 'request'), message };
}

interface ErrorReply {
  status: number;
  code: ErrorCode;
  message: string;
  details?: readonly FieldProblem[];
}

/** The parts of a request that carry fields, named as validation errors name them. */
export const fieldCarryingParts = (request: FastifyRequest) =>
  [
    ['body', request.body],
    ['querystring', request.query],
    ['params', request.params],
  ] as const;

/**
 * Where the request sent a field a use case named: the route's own mapping, else the part of the request
 * (body, query string, path) that has it at its top level; Fastify's own `body.x` paths pass unchanged.
 */
function locate(request: FastifyRequest, field: string): string {
  const mapped = request.routeOptions.config.fieldPaths?.[field];
  if (mapped !== undefined) return mapped;
  const top = field.split('.')[0] ?? field;
  for (const [name, part] of fieldCarryingParts(request)) {
    if (top === name) return field;
    if (typeof part === 'object' && part !== null && Object.hasOwn(part, top)) return `${name}.${field}`;
  }
  return field;
}

function describe(request: FastifyRequest, error: FastifyError | ParleyError): ErrorReply {
  if (ParleyError.isInstance(error)) {
    const details = error.details?.map((problem) => ({ ...problem, field: locate(request, problem.field) }));
    return { status: error.status, code: error.code, message: error.message, details };
  }
  if (error.validation !== undefined) {
    // A union (a channel's config) reports the same problem once per branch it tried: each is said once.
    const problems = error.validation.map((problem) => toFieldProblem(error.validationContext, problem));
    const details = [...new Map(problems.map((problem) => [`${problem.field}\n${problem.message}`, problem])).values()];
    const fields = [...new Set(details.map((detail) => detail.field))].join(', ');
    return { status: 400, code: 'INVALID_REQUEST', message: `Invalid request: check ${fields}`, details };
  }
  const known = FOREIGN_CLIENT_ERRORS[error.code];
  // Fastify's own client errors say what is wrong in plain words; anything else may leak internals.
  if (known !== undefined) return { status: ERRORS[known].status, code: known, message: error.message };
  return { status: 500, code: 'INTERNAL', message: ERRORS.INTERNAL.message };
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
  const { status, code, message, details } = describe(request, error);
  const parley = ParleyError.isInstance(error) ? error : undefined;
  if (status === 500 || parley?.cause !== undefined) logFailure(request, error);
  if (parley?.retryAfterSeconds !== undefined) reply.header('retry-after', String(parley.retryAfterSeconds));
  if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '1');
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({
      error: code,
      message,
      ...(details && details.length > 0 ? { details } : {}),
      ...(parley?.existing === undefined ? {} : { existing: parley.existing }),
      requestId: request.id,
    });
}

/**
 * JSON bodies: an empty body is no body (clients send `Content-Type: application/json` with nothing on
 * GET and DELETE), and malformed or too deeply nested JSON is a clear 400.
 */
export function parseJsonBody(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(null, undefined);
  if (isNestedTooDeep(body)) {
    return done(
      invalid(`The body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, [
        { field: 'body', message: `must not nest more than ${MAX_JSON_DEPTH} levels deep` },
      ]),
    );
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
    sendError(request, reply, new ParleyError('NOT_FOUND', `No route ${request.method} ${request.originalUrl.split('?')[0]}`)),
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
