import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../../errors.js';
import { METRICS_CONTENT_TYPE, httpRequestDuration, httpRequestsInFlight, renderMetrics } from '../../observability/instruments.js';
import { bearerCredential } from './auth.js';

/** Requests counted in flight and not yet counted out: an aborted request may end twice (abort, then response). */
const inFlight = new WeakSet<FastifyRequest>();

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Every request timed into `parley_http_request_duration_seconds` by its route pattern (never its URL,
 * so series stay bounded; `unmatched` for 404s without a route) and counted while in flight; with a
 * metrics token, `GET /metrics` for the scraper that sends it as a bearer credential.
 */
export function registerMetrics(app: FastifyInstance, { token }: { token: string | null }): void {
  const countOut = (request: FastifyRequest) => {
    if (inFlight.delete(request)) httpRequestsInFlight.dec();
  };
  app.addHook('onRequest', (request, _reply, done) => {
    inFlight.add(request);
    httpRequestsInFlight.inc();
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    countOut(request);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    countOut(request);
    httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (token === null) return;
  // Compared as digests, so the comparison takes the same time whatever the length sent.
  const expected = digest(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const sent = bearerCredential(request.headers.authorization);
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      throw unauthorized('GET /metrics needs the metrics token: "Authorization: Bearer <PARLEY_METRICS_TOKEN>"');
    }
    return reply.type(METRICS_CONTENT_TYPE).send(await renderMetrics());
  });
}
