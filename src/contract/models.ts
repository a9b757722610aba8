import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';
import { Id } from './shared-schemas.js';

/** The workspace's model names and providers as the API answers them. */

export const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;

export const SERVING_KINDS = ['openai', 'openai-compatible', 'anthropic', 'local'] as const;

/**
 * A `modelName`: checked against the configured models by the domain, so a name nobody configured answers
 * UNKNOWN_MODEL rather than a schema error.
 */
export const ModelName = (description: string) =>
  Type.String({ minLength: 1, maxLength: 200, description: `${description}; one of the names GET /models lists` });

export const Model = Type.Object({
  name: Type.String(),
  provider: StringEnum(SERVING_KINDS, {
    description: 'local: the built-in offline model, which answers by quoting the sentences of the retrieved passages',
  }),
  model: Type.String({ description: 'The provider’s model id (`local-extractive` for the built-in model)' }),
  providerId: Nullable(Type.String({ description: 'The workspace’s provider serving the name; null: the operator’s configuration' })),
  providerName: Nullable(Type.String()),
  operatorDefault: Type.Object(
    { provider: StringEnum(SERVING_KINDS), model: Type.String() },
    { description: 'What serves the name when the workspace chooses nothing: the environment’s configuration' },
  ),
});

export const Provider = Type.Object({
  id: Type.String(),
  name: Type.String(),
  kind: StringEnum(PROVIDER_KINDS, { description: 'openai-compatible: vLLM, Ollama, llama.cpp’s server or any other speaking OpenAI’s API' }),
  baseUrl: Nullable(Type.String({ description: 'The API root; null: the vendor’s own' })),
  apiKeyHint: Nullable(Type.String({ description: 'The key’s first and last characters (`sk-…x7Qa`); the key itself is never returned' })),
  keyReadable: Type.Boolean({ description: 'False when the key was sealed under another secret key: enter it again' }),
  createdAt: Timestamp('When the provider was added'),
  updatedAt: Timestamp('Last change'),
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  code: StringEnum(
    ['ok', 'blocked', 'key_unreadable', 'unauthorized', 'not_found', 'rate_limited', 'unavailable', 'unreachable', 'timeout', 'unusable', 'refused'],
    { description: 'Why the test failed, in Parley’s words (never the provider’s text)' },
  ),
  message: Type.String(),
  status: Nullable(Type.Integer({ description: 'The provider’s HTTP status, when it answered one' })),
  models: Type.Array(Type.String(), { description: 'Model ids the provider listed' }),
  durationMs: Type.Integer(),
});

const BaseUrl = Type.String({
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2000,
  description: 'The API root (`https://…/v1`); PARLEY_OUTBOUND_ALLOW must allow its address',
});
const ApiKey = Type.String({ minLength: 1, maxLength: 4000, description: 'Sealed (AES-256-GCM) before it is stored; never returned' });
const ProviderName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

/** `POST /model-providers`. */
export const NewProvider = Type.Object({
  name: ProviderName,
  kind: StringEnum(PROVIDER_KINDS),
  baseUrl: Type.Optional(Nullable(BaseUrl)),
  apiKey: Type.Optional(Nullable(ApiKey)),
});

/** `PATCH /model-providers/{id}`: a provider's kind stays what it was made with. */
export const ProviderChanges = Type.Object({
  name: Type.Optional(ProviderName),
  baseUrl: Type.Optional(Nullable(BaseUrl)),
  apiKey: Type.Optional(Nullable(ApiKey)),
});

/** `PUT /model-routes/{modelName}`: which provider's model serves the name in the workspace. */
export const ModelRoute = Type.Object({
  providerId: Id,
  model: Type.String({ minLength: 1, maxLength: 200, description: 'The provider’s model id' }),
});

export type ModelBody = Static<typeof Model>;
export type ModelRouteBody = Static<typeof ModelRoute>;
export type ModelProviderBody = Static<typeof Provider>;
export type ProviderTestBody = Static<typeof TestResult>;
export type NewProviderBody = Static<typeof NewProvider>;
export type ProviderChangesBody = Static<typeof ProviderChanges>;
