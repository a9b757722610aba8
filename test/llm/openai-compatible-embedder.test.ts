import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/llm/embeddings/create-embedder.js';
import { LocalEmbedder } from '../../src/llm/embeddings/local-embedder.js';
import { OpenAICompatibleEmbedder } from '../../src/llm/embeddings/openai-compatible-embedder.js';
import { ModelError } from '../../src/llm/model-error.js';
import { DIMENSIONS, FakeEmbeddingsServer, fakeVector, unit } from '../support/fake-embeddings-server.js';

const API_KEY = 'sk-test-0123456789abcdef';

describe('OpenAICompatibleEmbedder against a loopback OpenAI embeddings server', () => {
  const server = new FakeEmbeddingsServer();
  let baseURL = '';

  beforeAll(async () => {
    baseURL = await server.start();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.requests.length = 0;
    server.replies.length = 0;
  });

  const embedder = (options: Partial<ConstructorParameters<typeof OpenAICompatibleEmbedder>[0]> = {}) =>
    new OpenAICompatibleEmbedder({ baseURL, model: 'text-embedding-test', apiKey: API_KEY, ...options });

  it('batches, authenticates, keeps input order and learns the dimensions', async () => {
    const client = embedder();
    expect(client.modelId).toBe('openai-compatible:text-embedding-test');
    expect(() => client.dimensions).toThrow(/not known yet/);
    const texts = Array.from({ length: 150 }, (_, i) => `passage number ${i}`);

    const vectors = await client.embedDocuments(texts);

    expect(server.requests.map((r) => r.body.input.length)).toEqual([64, 64, 22]);
    expect(server.requests.flatMap((r) => r.body.input).sort()).toEqual([...texts].sort());
    for (const request of server.requests) {
      expect(request.body.model).toBe('text-embedding-test');
      expect(request.body.encoding_format).toBe('float');
      expect(request.body.dimensions).toBeUndefined();
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    }
    expect(client.dimensions).toBe(DIMENSIONS);
    expect(vectors).toHaveLength(150);
    vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      const expected = unit(fakeVector(texts[i]!));
      expected.forEach((value, j) => expect(vector[j]).toBeCloseTo(value, 6));
    });
    expect(await client.embedDocuments([])).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it('embeds a query and probes the dimensions once when asked', async () => {
    const client = embedder({ batchSize: 10 });
    expect(await client.resolveDimensions()).toBe(DIMENSIONS);
    expect(await client.resolveDimensions()).toBe(DIMENSIONS);
    const query = await client.embedQuery('what is this?');
    expect(Array.from(query)).toEqual(Array.from(new Float32Array(unit(fakeVector('what is this?')))));
    expect(server.requests).toHaveLength(2);
  });

  it('decodes base64 vectors from servers that ignore encoding_format', async () => {
    server.replies.push({ kind: 'base64' });
    const [vector] = await embedder().embedDocuments(['base64 please']);
    unit(fakeVector('base64 please')).forEach((value, j) => expect(vector![j]).toBeCloseTo(value, 6));
  });

  it('sends configured dimensions only when asked to and checks what comes back', async () => {
    const declared = embedder({ dimensions: DIMENSIONS });
    expect(declared.dimensions).toBe(DIMENSIONS);
    expect(server.requests).toHaveLength(0);

    const requested = embedder({ dimensions: 4, requestDimensions: true });
    expect(requested.modelId).toBe('openai-compatible:text-embedding-test/4');
    server.replies.push({ kind: 'dimensions', dimensions: 4 });
    expect(await requested.embedQuery('short')).toHaveLength(4);
    expect(server.requests[0]?.body.dimensions).toBe(4);

    server.replies.push({ kind: 'dimensions', dimensions: 16 });
    await expect(declared.embedQuery('wrong size')).rejects.toThrow(/16 dimensions, expected 8/);
  });

  it('retries after a 500 and succeeds', async () => {
    server.replies.push({ kind: 'error', status: 500, message: 'model is loading', headers: { 'retry-after-ms': '10' } });
    const vectors = await embedder().embedDocuments(['a', 'b']);
    expect(vectors).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('fails on 401 without retrying, keeping the provider’s answer for the log and the key nowhere', async () => {
    server.replies.push({ kind: 'error', status: 401, message: `Incorrect API key provided: ${API_KEY}` });
    const error = await embedder()
      .embedQuery('secret')
      .catch((e: unknown) => e);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ failure: 'refused', retryable: false, providerStatus: 401 });
    expect((error as ModelError).message).toBe('The embeddings provider refused the request; the server log has its answer');
    expect((error as ModelError).providerMessage).toMatch(/^HTTP 401 from .*\/embeddings: Incorrect API key provided: \[redacted\]/);
    expect((error as ModelError).providerMessage).toContain(baseURL);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(String((error as Error).stack)).not.toContain(API_KEY);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [400, 'refused', false],
    [403, 'refused', false],
    [404, 'refused', false],
    [422, 'refused', false],
    [502, 'unavailable', true],
    [503, 'unavailable', true],
  ])('maps HTTP %i to %s', async (status, failure, retryable) => {
    server.replies.push({ kind: 'error', status, message: 'provider says no' });
    const error = await embedder({ maxRetries: 0 })
      .embedQuery('x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ failure, retryable, providerStatus: status });
    expect((error as Error).message).not.toContain('provider says no');
  });

  it('reports persistent rate limiting as retryable after the retries are spent, with the provider’s Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      server.replies.push({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '5' } });
    }
    const error = await embedder({ maxRetries: 2 })
      .embedQuery('busy')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'rate_limited', retryable: true, providerStatus: 429, retryAfterSeconds: 1 });
    expect((error as ModelError).providerMessage).toMatch(/HTTP 429 .*Rate limit reached/);
    expect(server.requests).toHaveLength(3);
  });

  it('says when the endpoint is unreachable', async () => {
    const closed = new FakeEmbeddingsServer();
    const url = await closed.start();
    await closed.stop();
    const error = await new OpenAICompatibleEmbedder({ baseURL: url, model: 'm', maxRetries: 0 }).embedQuery('anyone?').catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'unavailable', retryable: true, providerStatus: undefined });
    expect((error as ModelError).providerMessage).toMatch(/^no response from .*ECONNREFUSED/);
  });

  it('gives up on a server that does not answer in time', async () => {
    server.replies.push({ kind: 'hang' });
    const started = performance.now();
    const error = await embedder({ timeoutMs: 200, maxRetries: 0 })
      .embedQuery('slow')
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error).toMatchObject({ failure: 'unavailable', retryable: true, message: 'The embeddings provider did not answer in time' });
  });

  it('aborts a request in flight', async () => {
    server.replies.push({ kind: 'hang' });
    const controller = new AbortController();
    const pending = embedder().embedDocuments(['slow'], controller.signal);
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1000);
    await expect(embedder().embedQuery('x', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createEmbedder', () => {
  it('picks the remote embedder when a URL is configured', async () => {
    const remote = createEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'nomic-embed-text', apiKey: null, dimensions: 768 });
    expect(remote).toBeInstanceOf(OpenAICompatibleEmbedder);
    expect(remote.dimensions).toBe(768);
    await remote.close();
    expect(() => createEmbedder({ url: 'http://127.0.0.1:1/v1' })).toThrow(/model/);
  });

  it('falls back to the built-in model, which starts no thread until used', async () => {
    const local = createEmbedder({ url: null, model: null, threads: 1 });
    expect(local).toBeInstanceOf(LocalEmbedder);
    expect(local.modelId).toBe('local:use-lite-512@0.2.0');
    await local.close();
    expect(() => createEmbedder({ dimensions: 384 })).toThrow(/512/);
  });
});
