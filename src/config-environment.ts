import { Type } from '@sinclair/typebox';

/** How much each log line must matter to be written. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];

const oneOf = <const T extends string>(values: readonly T[], options: { default?: T; description: string }) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
const url = (schemes: string, description: string) => Type.String({ pattern: `^(${schemes})://`, description });
const atLeast = (minimum: number, fallback: number, description: string) => Type.Integer({ minimum, default: fallback, description });
const positive = (fallback: number, description: string) => Type.Number({ exclusiveMinimum: 0, default: fallback, description });
const flag = (description: string) => oneOf(['0', '1', 'false', 'true'], { default: '0', description });

/** How one entry of PARLEY_MODELS is written. */
export const ModelEntry = Type.Object(
  {
    provider: oneOf(['openai', 'openai-compatible', 'anthropic', 'local'], { description: 'Who serves the model' }),
    model: Type.Optional(Type.String({ description: 'The provider’s model id' })),
    baseURL: Type.Optional(Type.String({ description: 'The API root (…/v1)' })),
    apiKey: Type.Optional(Type.String()),
    maxOutputTokens: Type.Optional(Type.Integer({ minimum: 1, description: 'The largest maxTokens a question may ask for' })),
    timeoutSeconds: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Seconds the provider may stay silent' })),
  },
  { additionalProperties: false },
);

/**
 * Every environment variable Parley reads, with its type, bounds and default: the one place they are
 * declared (as Fastify's env-schema does). Values arrive as text and are coerced; an empty value is unset.
 * Any other `PARLEY_*` variable is a typo and stops the start.
 */
export const ENVIRONMENT = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'HTTP port (0 picks a free one)' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'Interface to listen on' }),
  PARLEY_DATA_DIR: Type.String({ default: 'data', description: 'Embedded store and uploaded files' }),
  PARLEY_DATABASE_URL: Type.Optional(url('postgres|postgresql', 'A PostgreSQL URL switches to PostgreSQL')),
  PARLEY_LOG_LEVEL: Type.Optional(oneOf(LOG_LEVELS, { description: 'Log level (LOG_LEVEL is read too)' })),
  PARLEY_BODY_LIMIT_MB: positive(1, 'Largest JSON body'),
  PARLEY_MODELS: Type.Optional(Type.String({ description: 'JSON: per model name, its provider' })),
  PARLEY_OPENAI_BASE_URL: Type.Optional(Type.String()),
  PARLEY_OPENAI_API_KEY: Type.Optional(Type.String()),
  PARLEY_ANTHROPIC_API_KEY: Type.Optional(Type.String()),
  PARLEY_SECRET_KEY: Type.Optional(
    Type.String({
      description: 'Seals provider API keys entered in the dashboard: 32 random bytes, base64 or hex (default: secret.key in the data directory)',
    }),
  ),
  PARLEY_QUOTA_QUERIES: Type.Optional(Type.Integer({ minimum: 0, description: 'Agent answers per workspace per month' })),
  PARLEY_MAX_UPLOAD_MB: positive(50, 'Largest upload or fetched web page'),
  PARLEY_QUOTA_CHARS: Type.Optional(Type.Integer({ minimum: 0, description: 'Characters of indexed text per workspace' })),
  PARLEY_OUTBOUND_ALLOW: Type.Optional(
    Type.String({
      description: 'Where Parley may connect: public (default), any, loopback, or host names, .suffixes, IPs and CIDRs, comma-separated',
    }),
  ),
  PARLEY_ALLOW_PRIVATE_URLS: flag('Old spelling of PARLEY_OUTBOUND_ALLOW=any'),
  PARLEY_CHUNK_TOKENS: atLeast(32, 400, 'Chunk size in tokens'),
  PARLEY_CHUNK_OVERLAP_TOKENS: atLeast(0, 60, 'Chunk overlap in tokens (less than half the chunk)'),
  PARLEY_PARSE_SECONDS: Type.Optional(
    Type.Number({ exclusiveMinimum: 0, description: 'Seconds one document may take to parse and chunk (default 180)' }),
  ),
  PARLEY_WORKER_CONCURRENCY: atLeast(1, 2, 'Jobs one process runs at a time'),
  PARLEY_JOB_LEASE_SECONDS: positive(30, 'A job whose worker stops heartbeating this long is taken over'),
  PARLEY_JOB_MAX_ATTEMPTS: atLeast(1, 5, 'Attempts before a job fails for good'),
  PARLEY_JOB_RETRY_BASE_SECONDS: positive(5, 'First backoff between attempts'),
  PARLEY_JOB_RETRY_MAX_SECONDS: positive(86_400, 'Longest backoff between attempts'),
  PARLEY_EMBEDDINGS_URL: Type.Optional(url('https?', 'An OpenAI-compatible embeddings endpoint')),
  PARLEY_EMBEDDINGS_MODEL: Type.Optional(Type.String()),
  PARLEY_EMBEDDINGS_API_KEY: Type.Optional(Type.String()),
  PARLEY_EMBEDDINGS_MAX_INPUT_TOKENS: Type.Optional(
    Type.Integer({ minimum: 16, description: 'Tokens of one text the remote embedding model reads (default 8192)' }),
  ),
  PARLEY_EMBEDDINGS_THREADS: Type.Optional(Type.Integer({ minimum: 1, description: 'Worker threads of the built-in model (default: cores)' })),
  PARLEY_EMBEDDINGS_PRELOAD: oneOf(['0', '1', 'false', 'true'], {
    default: '1',
    description: 'Load the embedding model at start, before the server reports ready',
  }),
  PARLEY_QUERY_CACHE_SIZE: atLeast(0, 1000, 'Query vectors kept per process; 0 turns the cache off'),
  PARLEY_SMTP_URL: Type.Optional(url('smtps?', 'SMTP server for notification e-mail')),
  PARLEY_SMTP_TIMEOUT_SECONDS: positive(30, 'Bound on each step of an SMTP conversation'),
  PARLEY_MAIL_FROM: Type.String({ default: 'Parley <parley@localhost>' }),
  PARLEY_PUBLIC_URL: Type.Optional(url('https?', 'The address people reach Parley at')),
  PARLEY_MAIL_INBOUND_PORT: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 65535, description: 'Port of the built-in SMTP listener for mail forwarded to agents (off when unset)' }),
  ),
  PARLEY_MAIL_INBOUND_HOST: Type.String({ default: '0.0.0.0', description: 'Interface of PARLEY_MAIL_INBOUND_PORT' }),
  PARLEY_CHANNEL_ATTACHMENT_MAX_MB: positive(10, 'Largest attachment kept from an e-mail or a messenger message, in MB'),
  PARLEY_WEBHOOK_TIMEOUT_SECONDS: positive(10, 'Bound on one webhook request'),
  PARLEY_DELIVERY_MAX_ATTEMPTS: atLeast(1, 15, 'Attempts per webhook delivery or e-mail'),
  PARLEY_DELIVERY_CONCURRENCY: atLeast(1, 8, 'Deliveries one process sends at a time'),
  PARLEY_RATE_LIMIT_KEY_PER_MINUTE: atLeast(1, 1200, 'Requests a minute per API key'),
  PARLEY_RATE_LIMIT_IP_PER_MINUTE: atLeast(1, 60, 'Requests a minute per client address on public routes'),
  PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE: atLeast(1, 20, 'Requests a minute per visitor on public routes'),
  PARLEY_REDIS_URL: Type.Optional(url('rediss?', 'Redis for shared rate-limit counters')),
  PARLEY_PUBLIC_QUERY_MAX_CHARS: atLeast(1, 4000, 'Longest question a caller without a key may ask'),
  PARLEY_KNOWLEDGE_GAP_SCORE: Type.Number({
    minimum: 0,
    maximum: 1,
    default: 0.5,
    description: 'Best retrieval score (0..1) below which an agent answer is a knowledge gap; 0 counts only answers that found nothing',
  }),
  PARLEY_SIGNUP: oneOf(['closed', 'open'], { default: 'closed', description: 'open: anyone may create an account and a workspace' }),
  PARLEY_TLS_CERT: Type.Optional(Type.String({ description: 'PEM certificate chain file: serve HTTPS (with PARLEY_TLS_KEY)' })),
  PARLEY_TLS_KEY: Type.Optional(Type.String({ description: 'PEM private key file of PARLEY_TLS_CERT' })),
  PARLEY_TRUST_PROXY: Type.Optional(
    Type.String({ description: 'Believe X-Forwarded-* from: true (any peer), a hop count, or addresses/CIDRs, comma-separated' }),
  ),
  PARLEY_SHUTDOWN_TIMEOUT_SECONDS: positive(10, 'On SIGTERM, how long requests under way may take to finish'),
  PARLEY_METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'Bearer token of GET /metrics on the API port' })),
  PARLEY_METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'A port of its own for GET /metrics, no token' })),
  PARLEY_METRICS_HOST: Type.String({ default: '127.0.0.1', description: 'Interface of PARLEY_METRICS_PORT' }),
});
