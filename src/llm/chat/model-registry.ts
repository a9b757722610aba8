import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ModelConfig } from '../../config.js';
import { LocalAnswerer } from './local-answerer.js';
import { BUILT_IN_MODEL_NAMES, HOSTED_MODELS, type BuiltInModelName } from './model-names.js';

export type ModelProviderKind = ModelConfig['provider'];

/** What may be asked of one model and how long it may take. */
export interface ModelLimits {
  maxOutputTokens: number;
  timeoutMs: number;
}

export interface ModelRegistryOptions {
  /** Per-name settings; they win over the defaults of a built-in name and add names. */
  models?: Readonly<Record<string, ModelConfig>> | null;
  /** OpenAI (or a server speaking its API) for the built-in names. */
  openai?: { baseURL?: string | null; apiKey?: string | null } | null;
  /** Anthropic for the built-in names, when OpenAI is not configured. */
  anthropicApiKey?: string | null;
  /** How providers reach their APIs (Parley's, through its outbound policy); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** Maps a Parley `modelName` to a model the AI SDK drives. */
export interface ModelRegistry {
  /** The model behind `modelName`; throws {@link UnknownModelError} for a name not in {@link modelNames}. */
  resolveModel(modelName: string): LanguageModelV3;
  /** The configured limits of `modelName`; throws {@link UnknownModelError} like {@link resolveModel}. */
  limitsOf(modelName: string): ModelLimits;
  /** Every name that resolves: the built-in ones first, then the hosted service's, then configured ones in their order. */
  modelNames(): string[];
  /** The same names, each with the kind of provider that serves it and that provider's model id. */
  catalogue(): { name: string; provider: ModelProviderKind; modelId: string }[];
}

/** Defaults with OpenAI configured: a general model, a strong one, its small sibling, a reasoning model. */
export const OPENAI_DEFAULT_MODELS: Readonly<Record<BuiltInModelName, string>> = Object.freeze({
  llm_a: 'gpt-4o',
  llm_b: 'gpt-4.1',
  llm_b_mini: 'gpt-4.1-mini',
  llm_c: 'o4-mini',
});

/** Defaults with only Anthropic configured; there is no separate reasoning tier, so llm_c is the strongest. */
export const ANTHROPIC_DEFAULT_MODELS: Readonly<Record<BuiltInModelName, string>> = Object.freeze({
  llm_a: 'claude-sonnet-4-5',
  llm_b: 'claude-opus-4-5',
  llm_b_mini: 'claude-haiku-4-5',
  llm_c: 'claude-opus-4-5',
});

/**
 * The output bound when the configuration names none: what every model a provider offers by default can
 * write, and a modest cap for servers whose models are unknown (small local models have small contexts).
 */
export const DEFAULT_MAX_OUTPUT_TOKENS: Readonly<Record<ModelProviderKind, number>> = Object.freeze({
  openai: 16_384,
  anthropic: 8_192,
  'openai-compatible': 4_096,
  local: 4_096,
});

const DEFAULT_TIMEOUT_SECONDS = 60;

// Explicit, so the SDKs never fall back to OPENAI_BASE_URL / ANTHROPIC_BASE_URL from the environment.
const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/** A `modelName` that no built-in or configured model answers to; the request is at fault. */
export class UnknownModelError extends Error {
  override readonly name = 'UnknownModelError';

  constructor(
    readonly modelName: string,
    readonly knownNames: readonly string[],
  ) {
    super(`Unknown model "${modelName}"; available models: ${knownNames.join(', ')}`);
  }
}

/** Model settings that cannot work (missing model id, base URL or key); raised when the registry is built. */
export class ModelSettingsError extends Error {
  override readonly name = 'ModelSettingsError';
}

/**
 * The registry for `options`. Defaults for the built-in names: OpenAI's models when an OpenAI key or base URL
 * is configured, else Anthropic's when an Anthropic key is, else the built-in {@link LocalAnswerer} (so a
 * fresh install answers offline). Settings are checked and every model is built here; nothing touches the
 * network, and no environment variable is read (the SDKs' own `OPENAI_API_KEY`-style fallbacks included).
 *
 * OpenAI models go through the Chat Completions API (`/chat/completions`), which every OpenAI-compatible
 * server behind a custom `baseURL` also speaks, rather than the newer Responses API.
 */
export function createModelRegistry(options: ModelRegistryOptions = {}): ModelRegistry {
  const local = new LocalAnswerer();
  const openai = options.openai?.apiKey || options.openai?.baseURL ? options.openai : null;
  const anthropicApiKey = options.anthropicApiKey || null;
  const defaultProvider: ModelProviderKind = openai ? 'openai' : anthropicApiKey ? 'anthropic' : 'local';

  const configured = options.models ?? {};
  const defaults: Defaults = { local, openai, anthropicApiKey, fetch: options.fetch };
  const models = new Map<string, ServedModel>();
  const serve = (name: string, entry: ModelConfig) =>
    models.set(name, { model: buildModel(name, entry, defaults), limits: limitsOf(entry), provider: entry.provider });
  for (const name of BUILT_IN_MODEL_NAMES) serve(name, configured[name] ?? { provider: defaultProvider });
  // After the tiers, with the operator's settings: a hosted name nobody configured and whose vendor is not
  // configured is served as its tier is.
  for (const [name, hosted] of Object.entries(HOSTED_MODELS)) {
    const vendor: ModelConfig | null =
      openai && hosted.openai
        ? { provider: 'openai', model: hosted.openai }
        : anthropicApiKey && hosted.anthropic
          ? { provider: 'anthropic', model: hosted.anthropic }
          : null;
    const entry = configured[name] ?? vendor;
    if (entry) serve(name, entry);
    else models.set(name, models.get(hosted.tier)!);
  }
  for (const [name, entry] of Object.entries(configured)) if (!models.has(name)) serve(name, entry);
  const names = [...models.keys()];
  const find = (modelName: string) => {
    const found = models.get(modelName);
    if (!found) throw new UnknownModelError(modelName, names);
    return found;
  };

  return {
    resolveModel: (modelName) => find(modelName).model,
    limitsOf: (modelName) => find(modelName).limits,
    modelNames: () => [...names],
    catalogue: () => names.map((name) => ({ name, provider: models.get(name)!.provider, modelId: models.get(name)!.model.modelId })),
  };
}

/** What a remote provider's model is, as a workspace connects it (the dashboard's Models page). */
export interface ProviderModelSettings {
  provider: Exclude<ModelProviderKind, 'local'>;
  /** The provider's model id. */
  model: string;
  /** The API root; null: the vendor's own (required for `openai-compatible`). */
  baseURL: string | null;
  apiKey: string | null;
}

/**
 * A model of a provider a workspace connected, built as a PARLEY_MODELS entry is but from the workspace's
 * own settings alone (the operator's keys are never lent to it); throws {@link ModelSettingsError}.
 */
export function createProviderModel(settings: ProviderModelSettings, fetchVia?: typeof fetch): { model: LanguageModelV3; limits: ModelLimits } {
  const entry: ModelConfig = {
    provider: settings.provider,
    model: settings.model,
    ...(settings.baseURL === null ? {} : { baseURL: settings.baseURL }),
    ...(settings.apiKey === null ? {} : { apiKey: settings.apiKey }),
  };
  return { model: buildModel(settings.model, entry, { local: null, openai: null, anthropicApiKey: null, fetch: fetchVia }), limits: limitsOf(entry) };
}

function limitsOf(entry: ModelConfig): ModelLimits {
  return {
    maxOutputTokens: entry.maxOutputTokens || DEFAULT_MAX_OUTPUT_TOKENS[entry.provider],
    timeoutMs: (entry.timeoutSeconds || DEFAULT_TIMEOUT_SECONDS) * 1000,
  };
}

interface ServedModel {
  model: LanguageModelV3;
  limits: ModelLimits;
  provider: ModelProviderKind;
}

interface Defaults {
  /** Null where no name may be served by the built-in answerer (a workspace's provider). */
  local: LocalAnswerer | null;
  openai: ModelRegistryOptions['openai'];
  anthropicApiKey: string | null;
  fetch: typeof fetch | undefined;
}

function buildModel(name: string, entry: ModelConfig, defaults: Defaults): LanguageModelV3 {
  const fail = (problem: string) => new ModelSettingsError(`Model "${name}" (${entry.provider}): ${problem}`);
  const builtIn = (BUILT_IN_MODEL_NAMES as readonly string[]).includes(name) ? (name as BuiltInModelName) : null;
  switch (entry.provider) {
    case 'local':
      if (defaults.local === null) throw fail('the built-in model is not a provider');
      return defaults.local;
    case 'openai': {
      const model = entry.model || (builtIn && OPENAI_DEFAULT_MODELS[builtIn]);
      if (!model) throw fail('a model id is required');
      const baseURL = entry.baseURL || defaults.openai?.baseURL;
      const apiKey = entry.apiKey || defaults.openai?.apiKey;
      if (!apiKey && !baseURL) throw fail('an API key is required for api.openai.com');
      // Both explicit: left undefined, the SDK reads OPENAI_BASE_URL / OPENAI_API_KEY at call time. An empty
      // key sends a bare "Bearer", which servers without auth ignore.
      return createOpenAI({ baseURL: baseURL || OPENAI_BASE_URL, apiKey: apiKey || '', fetch: defaults.fetch }).chat(model);
    }
    case 'openai-compatible': {
      if (!entry.model) throw fail('a model id is required');
      if (!entry.baseURL) throw fail('a baseURL is required');
      // include_usage: token counts in the stream, which the query response reports.
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: entry.baseURL,
        apiKey: entry.apiKey || undefined,
        includeUsage: true,
        fetch: defaults.fetch,
      });
      return provider.chatModel(entry.model);
    }
    case 'anthropic': {
      const model = entry.model || (builtIn && ANTHROPIC_DEFAULT_MODELS[builtIn]);
      if (!model) throw fail('a model id is required');
      const apiKey = entry.apiKey || defaults.anthropicApiKey;
      if (!apiKey) throw fail('an API key is required');
      return createAnthropic({ apiKey, baseURL: entry.baseURL || ANTHROPIC_BASE_URL, fetch: defaults.fetch })(model);
    }
    default:
      throw fail(`unknown provider; use one of openai, openai-compatible, anthropic, local`);
  }
}
