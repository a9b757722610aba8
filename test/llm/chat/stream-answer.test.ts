import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelRegistry } from '../../../src/llm/chat/model-registry.js';
import { streamAnswer, type FinishedAnswer } from '../../../src/llm/chat/stream-answer.js';
import { ModelError, retryAfterSeconds } from '../../../src/llm/model-error.js';
import { assemblePrompt } from '../../../src/llm/prompt/assemble-prompt.js';
import { FakeOpenAIChatServer, type ChatReply } from '../../support/fake-openai-chat-server.js';

const LEAK = 'Incorrect API key provided: sk-LEAKED-123 (gpu-7.internal.example)';

const prompt = assemblePrompt({
  query: 'How many bottles?',
  history: [],
  passages: [{ text: 'There were 20,000 bottles.', source: 'memo.pdf', pageNumber: 1 }],
  budgets: { historyTokens: 500, contextTokens: 500 },
});

describe('streamAnswer: provider failures become ModelErrors', () => {
  const server = new FakeOpenAIChatServer();
  let baseURL = '';
  let closedURL = '';

  beforeAll(async () => {
    baseURL = await server.start();
    const closed = new FakeOpenAIChatServer();
    closedURL = await closed.start();
    await closed.stop();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    server.replies.length = 0;
  });

  const answer = async (reply: ChatReply | null, { url = baseURL, timeoutMs = 5_000 } = {}) => {
    if (reply) server.replies.push(reply);
    const registry = createModelRegistry({ models: { remote: { provider: 'openai-compatible', baseURL: url, model: 'm' } } });
    const deltas: string[] = [];
    const outcome = await streamAnswer(
      registry.resolveModel('remote'),
      prompt,
      {},
      { signal: new AbortController().signal, onDelta: (delta) => deltas.push(delta), timeoutMs },
    ).catch((error: unknown) => error);
    return { outcome: outcome as ModelError | FinishedAnswer, deltas };
  };

  const expectSafe = (error: ModelError) => {
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error.message).not.toMatch(/LEAKED|internal\.example/);
  };

  it.each([400, 401, 403, 404, 422])('HTTP %i: refused, not retryable, the provider’s text kept for the log', async (status) => {
    const { outcome } = await answer({ kind: 'error', status, message: LEAK });
    expectSafe(outcome as ModelError);
    expect(outcome).toMatchObject({ failure: 'refused', retryable: false, providerStatus: status, retryAfterSeconds: undefined });
    expect((outcome as ModelError).providerMessage).toContain(LEAK);
    expect((outcome as ModelError).providerMessage).toContain(`${baseURL}/chat/completions`);
  });

  it.each([500, 502, 503])('HTTP %i: unavailable and retryable, after one request', async (status) => {
    const before = server.requests.length;
    const { outcome } = await answer({ kind: 'error', status, message: LEAK });
    expectSafe(outcome as ModelError);
    expect(outcome).toMatchObject({ failure: 'unavailable', retryable: true, providerStatus: status });
    expect(server.requests.length - before).toBe(1);
  });

  it('HTTP 429: rate limited, with the provider’s Retry-After in seconds or as a date', async () => {
    const seconds = await answer({ kind: 'error', status: 429, message: LEAK, headers: { 'retry-after': '7' } });
    expect(seconds.outcome).toMatchObject({ failure: 'rate_limited', retryable: true, retryAfterSeconds: 7 });
    const date = new Date(Date.now() + 30_000).toUTCString();
    const dated = await answer({ kind: 'error', status: 429, message: LEAK, headers: { 'retry-after': date } });
    expect((dated.outcome as ModelError).retryAfterSeconds).toBeGreaterThanOrEqual(28);
    expect((dated.outcome as ModelError).retryAfterSeconds).toBeLessThanOrEqual(31);
    const none = await answer({ kind: 'error', status: 429, message: LEAK });
    expect(none.outcome).toMatchObject({ failure: 'rate_limited', retryAfterSeconds: undefined });
  });

  it('a refused connection or one closed without an answer: unavailable', async () => {
    const refused = await answer(null, { url: closedURL });
    expect(refused.outcome).toMatchObject({ failure: 'unavailable', retryable: true, providerStatus: undefined });
    expect((refused.outcome as ModelError).providerMessage).toMatch(/ECONNREFUSED/);
    const reset = await answer({ kind: 'reset' });
    expect(reset.outcome).toMatchObject({ failure: 'unavailable', retryable: true });
  });

  it.each(['silent', 'hang'] as const)('a provider that stays %s fails after the timeout', async (kind) => {
    const started = performance.now();
    const { outcome } = await answer({ kind }, { timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcome).toMatchObject({ failure: 'unavailable', retryable: true, message: 'The model provider did not answer in time' });
  });

  it('a stream that breaks off after its first deltas fails with what broke it', async () => {
    const deltas = ['Twenty', ' thousand'];
    const cases: [ChatReply, Partial<ModelError>][] = [
      [{ kind: 'answer', deltas, cut: { error: { message: LEAK, type: 'server_error' } } }, { failure: 'unavailable' }],
      [{ kind: 'answer', deltas, cut: { error: { message: LEAK, type: 'rate_limit_exceeded' } } }, { failure: 'rate_limited' }],
      [{ kind: 'answer', deltas, cut: 'drop' }, { failure: 'unavailable' }],
      [
        { kind: 'answer', deltas, cut: 'hang' },
        { failure: 'unavailable', message: 'The model provider did not answer in time' },
      ],
      [
        { kind: 'answer', deltas, finishReason: 'content_filter' },
        { failure: 'refused', retryable: false },
      ],
    ];
    for (const [reply, expected] of cases) {
      const { outcome, deltas: received } = await answer(reply, { timeoutMs: 500 });
      expect(received).toEqual(deltas);
      expectSafe(outcome as ModelError);
      expect(outcome).toMatchObject(expected);
    }
  });

  it('a complete answer still resolves', async () => {
    const { outcome } = await answer({ kind: 'answer', deltas: ['Twenty', ' thousand.'] });
    expect(outcome).toMatchObject({ text: 'Twenty thousand.', finish: 'complete' });
  });
});

describe('retryAfterSeconds', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after': '12' }, 12],
    [{ 'retry-after': '0.2' }, 1],
    [{ 'retry-after': 'Wed, 01 Jan 2025 00:01:00 GMT' }, 60],
    [{ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, 1],
    [{ 'retry-after-ms': '2500', 'retry-after': '9' }, 3],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(retryAfterSeconds(headers, now)).toBe(expected);
  });
});
