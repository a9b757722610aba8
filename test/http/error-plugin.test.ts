import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ParleyError, invalid } from '../../src/errors.js';
import { registerErrorHandling } from '../../src/http/plugins/errors.js';
import { detailFields, type ErrorBody } from '../support/bodies.js';

/** A bare Fastify with only the error plugin, and routes that fail in the ways the plugin must tell apart. */
async function appThrowing(): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerErrorHandling(app);
  app.get('/foreign', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED db-7.internal:5432'), { statusCode: 404 });
  });
  app.get('/fastify-own', async () => {
    throw Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });
  app.get('/ours', async () => {
    throw new ParleyError('MODEL_RATE_LIMITED', undefined, { retryAfterSeconds: 7, cause: new Error('provider said sk-123') });
  });
  app.post('/named', { config: { fieldPaths: { url: 'body.config.source_url' } } }, async () => {
    throw invalid('bad', [
      { field: 'url', message: 'must be a URL' },
      { field: 'name', message: 'must not be blank' },
      { field: 'limit', message: 'too big' },
    ]);
  });
  // Two shapes a body may take, both with a name: a name of the wrong type fails both the same way.
  const shape = (name: string) => ({ type: 'object', properties: { name: { type: 'string' }, [name]: { type: 'string' } } });
  app.post(
    '/either',
    { schema: { body: { type: 'object', properties: { config: { anyOf: [shape('token'), shape('address')] } } } } },
    async () => ({}),
  );
  await app.ready();
  return app;
}

describe('the error plugin', () => {
  it('never believes the status of an error that is not ours: 500 INTERNAL, nothing of its text', async () => {
    const app = await appThrowing();
    const response = await app.inject({ method: 'GET', url: '/foreign' });
    expect(response.statusCode).toBe(500);
    expect(response.json<ErrorBody>()).toMatchObject({ error: 'INTERNAL' });
    expect(response.body).not.toContain('db-7');
  });

  it('maps Fastify’s own client errors by their code', async () => {
    const app = await appThrowing();
    const response = await app.inject({ method: 'GET', url: '/fastify-own' });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers ours with the catalogue’s status, message and Retry-After, the cause kept out', async () => {
    const app = await appThrowing();
    const response = await app.inject({ method: 'GET', url: '/ours' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json<ErrorBody>()).toMatchObject({ error: 'MODEL_RATE_LIMITED' });
    expect(response.body).not.toContain('sk-123');
  });

  it('says where the request sent each field the use case named', async () => {
    const app = await appThrowing();
    const response = await app.inject({ method: 'POST', url: '/named?limit=5', payload: { name: ' ', config: {} } });
    expect(response.statusCode).toBe(400);
    expect(detailFields(response.json<ErrorBody>())).toEqual(['body.config.source_url', 'body.name', 'querystring.limit']);
  });

  it('says each problem once when a union reports it for every branch', async () => {
    const app = await appThrowing();
    const response = await app.inject({ method: 'POST', url: '/either', payload: { config: { name: { first: 'Ada' } } } });
    expect(response.statusCode).toBe(400);
    const { details, message } = response.json<ErrorBody>();
    const said = (details ?? []).map((detail) => `${detail.field}: ${detail.message}`);
    expect(said.length).toBeGreaterThan(0);
    expect(new Set(said).size).toBe(said.length);
    const named = message.replace('Invalid request: check ', '').split(', ');
    expect(new Set(named).size).toBe(named.length);
  });
});
