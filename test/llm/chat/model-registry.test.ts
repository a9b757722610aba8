import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalAnswerer } from '../../../src/llm/chat/local-answerer.js';
import { BUILT_IN_MODEL_NAMES, HOSTED_MODELS } from '../../../src/llm/chat/model-names.js';
import {
  ANTHROPIC_DEFAULT_MODELS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  ModelSettingsError,
  OPENAI_DEFAULT_MODELS,
  UnknownModelError,
  createModelRegistry,
} from '../../../src/llm/chat/model-registry.js';
import { assemblePrompt } from '../../../src/llm/prompt/assemble-prompt.js';
import { FakeOpenAIChatServer } from '../../support/fake-openai-chat-server.js';

const HOSTED_NAMES = Object.keys(HOSTED_MODELS);

describe('createModelRegistry: defaults', () => {
  it('with nothing configured, every built-in and hosted name is the local answerer', () => {
    for (const registry of [createModelRegistry(), createModelRegistry({ models: {}, openai: {}, anthropicApiKey: '' })]) {
      expect(registry.modelNames()).toEqual(['llm_a', 'llm_b', 'llm_b_mini', 'llm_c', ...HOSTED_NAMES]);
      for (const name of [...BUILT_IN_MODEL_NAMES, ...HOSTED_NAMES]) {
        const model = registry.resolveModel(name);
        expect(model).toBeInstanceOf(LocalAnswerer);
        expect([model.specificationVersion, model.provider, model.modelId]).toEqual(['v3', 'parley', 'local-extractive']);
      }
    }
  });

  it('with an OpenAI key, the built-in names are OpenAI chat models', () => {
    const registry = createModelRegistry({ openai: { apiKey: 'sk-test' }, anthropicApiKey: 'sk-ant-test' });
    expect(Object.fromEntries(BUILT_IN_MODEL_NAMES.map((name) => [name, registry.resolveModel(name).modelId]))).toEqual({
      llm_a: 'gpt-4o',
      llm_b: 'gpt-4.1',
      llm_b_mini: 'gpt-4.1-mini',
      llm_c: 'o4-mini',
    });
    for (const name of BUILT_IN_MODEL_NAMES) {
      expect(registry.resolveModel(name).provider).toBe('openai.chat');
      expect(registry.resolveModel(name).specificationVersion).toBe('v3');
    }
  });

  it('with only an OpenAI-compatible base URL (no key), the built-in names still go there', () => {
    const registry = createModelRegistry({ openai: { baseURL: 'http://127.0.0.1:9/v1' } });
    expect(registry.resolveModel('llm_b_mini').modelId).toBe(OPENAI_DEFAULT_MODELS.llm_b_mini);
    expect(registry.resolveModel('llm_b_mini').provider).toBe('openai.chat');
  });

  it('with only an Anthropic key, the built-in names are Claude models', () => {
    const registry = createModelRegistry({ anthropicApiKey: 'sk-ant-test' });
    for (const name of BUILT_IN_MODEL_NAMES) {
      const model = registry.resolveModel(name);
      expect(model.provider).toBe('anthropic.messages');
      expect(model.modelId).toBe(ANTHROPIC_DEFAULT_MODELS[name]);
      expect(model.modelId).toMatch(/^claude-/);
    }
  });

  it('returns the same model object for a name every time', () => {
    const registry = createModelRegistry({ openai: { apiKey: 'sk-test' } });
    expect(registry.resolveModel('llm_a')).toBe(registry.resolveModel('llm_a'));
  });
});

describe('createModelRegistry: configured models (PARLEY_MODELS)', () => {
  it('overrides built-in names and adds new ones, listed after the built-in ones', () => {
    const registry = createModelRegistry({
      openai: { apiKey: 'sk-test' },
      models: {
        llm_b: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'llama-3.1-8b-instruct' },
        llm_c: { provider: 'local' },
        llm_a: { provider: 'openai', model: 'gpt-4o-mini' },
        house_claude: { provider: 'anthropic', model: 'claude-haiku-4-5', apiKey: 'sk-ant-own' },
      },
    });

    expect(registry.modelNames()).toEqual(['llm_a', 'llm_b', 'llm_b_mini', 'llm_c', ...HOSTED_NAMES, 'house_claude']);
    const described = (name: string) => {
      const model = registry.resolveModel(name);
      return `${model.provider} ${model.modelId}`;
    };
    expect(described('llm_a')).toBe('openai.chat gpt-4o-mini');
    expect(described('llm_b')).toBe('openai-compatible.chat llama-3.1-8b-instruct');
    expect(described('llm_b_mini')).toBe('openai.chat gpt-4.1-mini');
    expect(described('llm_c')).toBe('parley local-extractive');
    expect(described('house_claude')).toBe('anthropic.messages claude-haiku-4-5');
  });

  it('a built-in name configured for a provider without a model id gets that provider default', () => {
    const registry = createModelRegistry({ models: { llm_c: { provider: 'anthropic', apiKey: 'sk-ant' } } });
    expect(registry.resolveModel('llm_c').modelId).toBe(ANTHROPIC_DEFAULT_MODELS.llm_c);
    expect(registry.resolveModel('llm_a')).toBeInstanceOf(LocalAnswerer);
  });

  it('rejects settings that cannot work when the registry is built', () => {
    const cases = [
      { extra: { provider: 'openai-compatible' as const, model: 'm' }, problem: /baseURL is required/ },
      { extra: { provider: 'openai-compatible' as const, baseURL: 'http://127.0.0.1:9/v1' }, problem: /model id is required/ },
      { extra: { provider: 'openai' as const, apiKey: 'sk' }, problem: /model id is required/ },
      { extra: { provider: 'openai' as const, model: 'gpt-4o' }, problem: /API key is required/ },
      { extra: { provider: 'anthropic' as const, model: 'claude-haiku-4-5' }, problem: /API key is required/ },
    ];
    for (const { extra, problem } of cases) {
      const build = () => createModelRegistry({ models: { extra } });
      expect(build).toThrow(ModelSettingsError);
      expect(build).toThrow(problem);
      expect(build).toThrow(/Model "extra"/);
    }
    expect(() => createModelRegistry({ models: { x: { provider: 'gemini' as never } } })).toThrow(/unknown provider/);
  });
});

describe('createModelRegistry: unknown names', () => {
  it('throws an error naming the model and the ones available', () => {
    const registry = createModelRegistry({ models: { mine: { provider: 'local' } } });
    let error: unknown;
    try {
      registry.resolveModel('gpt_99');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnknownModelError);
    expect(error).toMatchObject({ modelName: 'gpt_99' });
    expect((error as Error).message).toBe(
      `Unknown model "gpt_99"; available models: ${['llm_a', 'llm_b', 'llm_b_mini', 'llm_c', ...HOSTED_NAMES, 'mine'].join(', ')}`,
    );
    expect(() => registry.resolveModel('__proto__')).toThrow(UnknownModelError);
    expect(() => registry.resolveModel('')).toThrow(UnknownModelError);
    expect(() => registry.limitsOf('gpt_99')).toThrow(UnknownModelError);
  });
});

describe('createModelRegistry: the hosted service’s model names', () => {
  const served = (registry: ReturnType<typeof createModelRegistry>, name: string) =>
    `${registry.resolveModel(name).provider} ${registry.resolveModel(name).modelId}`;

  it('are served by their vendor’s model when that vendor is configured, else as their tier', () => {
    const openai = createModelRegistry({ openai: { apiKey: 'sk-test' } });
    expect(served(openai, 'gpt_4')).toBe('openai.chat gpt-4');
    expect(served(openai, 'gpt_4o_mini')).toBe('openai.chat gpt-4o-mini');
    expect(served(openai, 'gpt_4_32k')).toBe('openai.chat gpt-4-turbo');
    expect(openai.resolveModel('claude_3_haiku')).toBe(openai.resolveModel('llm_b_mini'));
    expect(openai.resolveModel('mixtral_8x22b')).toBe(openai.resolveModel('llm_a'));

    const anthropic = createModelRegistry({ anthropicApiKey: 'sk-ant-test' });
    expect(served(anthropic, 'claude_3_5_sonnet')).toBe('anthropic.messages claude-sonnet-4-5');
    expect(served(anthropic, 'claude_3_haiku')).toBe('anthropic.messages claude-haiku-4-5');
    expect(anthropic.resolveModel('gpt_4o')).toBe(anthropic.resolveModel('llm_a'));

    const both = createModelRegistry({ openai: { apiKey: 'sk-test' }, anthropicApiKey: 'sk-ant-test' });
    expect(served(both, 'gpt_3_5_turbo')).toBe('openai.chat gpt-3.5-turbo');
    expect(served(both, 'claude_3_opus')).toBe('anthropic.messages claude-opus-4-5');
    expect(both.catalogue().find((model) => model.name === 'claude_3_opus')).toEqual({
      name: 'claude_3_opus',
      provider: 'anthropic',
      modelId: 'claude-opus-4-5',
    });
  });

  it('follow the operator: a hosted name in PARLEY_MODELS is served as configured, the others with their tier’s settings', () => {
    const registry = createModelRegistry({
      openai: { apiKey: 'sk-test' },
      models: {
        gpt_4: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'llama-3.1-70b' },
        llm_b_mini: { provider: 'local' },
      },
    });
    expect(served(registry, 'gpt_4')).toBe('openai-compatible.chat llama-3.1-70b');
    expect(registry.resolveModel('mixtral_8x7b')).toBeInstanceOf(LocalAnswerer);
    expect(registry.modelNames().indexOf('gpt_4')).toBe(BUILT_IN_MODEL_NAMES.length + HOSTED_NAMES.indexOf('gpt_4'));
  });
});

describe('createModelRegistry: limits', () => {
  it('bounds output per provider unless configured, and gives each model a silence timeout', () => {
    const registry = createModelRegistry({
      openai: { apiKey: 'sk-test' },
      models: {
        small: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm', maxOutputTokens: 512, timeoutSeconds: 2.5 },
        served: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'm' },
        offline: { provider: 'local' },
      },
    });
    expect(registry.limitsOf('llm_a')).toEqual({ maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS.openai, timeoutMs: 60_000 });
    expect(registry.limitsOf('small')).toEqual({ maxOutputTokens: 512, timeoutMs: 2_500 });
    expect(registry.limitsOf('served').maxOutputTokens).toBe(4_096);
    expect(registry.limitsOf('offline').maxOutputTokens).toBe(DEFAULT_MAX_OUTPUT_TOKENS.local);
  });
});

describe('registry models against a loopback OpenAI-compatible server', () => {
  const server = new FakeOpenAIChatServer();
  let baseURL = '';

  beforeAll(async () => {
    baseURL = await server.start();
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(() => {
    server.requests.length = 0;
    server.replies.length = 0;
  });

  const prompt = assemblePrompt({
    systemPrompt: 'You are the relief team assistant.',
    query: 'How many bottles of water?',
    history: [
      { from: 'human', text: 'Hello' },
      { from: 'agent', text: 'Hi! How can I help?' },
    ],
    passages: [{ text: 'There were 20,000 bottles of water delivered.', source: 'memo.pdf', pageNumber: 1 }],
    budgets: { historyTokens: 500, contextTokens: 500 },
  });

  it('streams through an openai-compatible model: the request carries the call settings, the deltas arrive in order', async () => {
    const registry = createModelRegistry({
      models: { llm_b: { provider: 'openai-compatible', baseURL, model: 'served-model', apiKey: 'sk-loopback' } },
    });
    const deltas = ['There', ' were', ' 20,000', ' bottles', ' [1].'];
    server.replies.push({ kind: 'answer', deltas, delayMs: 5, usage: { prompt_tokens: 42, completion_tokens: 5 } });

    const result = streamText({
      model: registry.resolveModel('llm_b'),
      system: prompt.system,
      messages: prompt.messages,
      temperature: 0.3,
      topP: 0.9,
      presencePenalty: 0.5,
      frequencyPenalty: 0.25,
      maxOutputTokens: 123,
    });
    const received: string[] = [];
    for await (const delta of result.textStream) received.push(delta);

    expect(received).toEqual(deltas);
    expect(await result.text).toBe('There were 20,000 bottles [1].');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).inputTokens).toBe(42);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-loopback');
    expect(request?.body).toMatchObject({
      model: 'served-model',
      stream: true,
      temperature: 0.3,
      top_p: 0.9,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      max_tokens: 123,
    });
    expect(request?.body.messages).toEqual([
      { role: 'system', content: prompt.system },
      { role: 'user', content: 'Hello' },
      { role: 'assistant', content: 'Hi! How can I help?' },
      { role: 'user', content: prompt.messages.at(-1)?.content },
    ]);
    expect(String(request?.body.messages.at(-1)?.content)).toContain('[1] (source: memo.pdf, page 1)');
  });

  it('the openai provider with a custom base URL talks chat completions with the mapped model id', async () => {
    const registry = createModelRegistry({ openai: { baseURL, apiKey: 'sk-openai-test' } });
    server.replies.push({ kind: 'answer', deltas: ['Twenty', ' thousand.'] });

    const result = await generateText({ model: registry.resolveModel('llm_a'), messages: prompt.messages, temperature: 0 });

    expect(result.text).toBe('Twenty thousand.');
    expect(server.requests[0]?.body).toMatchObject({ model: 'gpt-4o', temperature: 0 });
    expect(server.requests[0]?.body.stream).toBeFalsy();
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-openai-test');
  });

  it('an aborted call stops a stream the server never finishes', async () => {
    const registry = createModelRegistry({ models: { slow: { provider: 'openai-compatible', baseURL, model: 'slow-model' } } });
    server.replies.push({ kind: 'hang' });
    const controller = new AbortController();
    const result = streamText({ model: registry.resolveModel('slow'), messages: prompt.messages, abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 50);

    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain('abort');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});
