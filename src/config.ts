import os from 'node:os';
import path from 'node:path';

/** Where Parley keeps its records: the embedded SQLite file or a PostgreSQL server. */
export type StoreConfig =
  | { kind: 'sqlite'; file: string }
  | { kind: 'postgres'; url: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The whole runtime configuration, read once at start and frozen. */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly store: StoreConfig;
  readonly logLevel: LogLevel;
  /** Largest JSON body accepted, in bytes. */
  readonly bodyLimitBytes: number;
  /** Model names accepted besides the built-in four (the list is open, see DESIGN §5). */
  readonly extraModelNames: readonly string[];
  readonly models: ModelsConfig;
  readonly ingestion: IngestionConfig;
  readonly jobs: JobsConfig;
  readonly embeddings: EmbeddingsConfig;
  readonly events: EventsConfig;
  readonly publicAccess: PublicAccessConfig;
}

/** Requests per minute, per API key and, on public routes, per client IP and per visitor (in one workspace). */
export interface RateLimitsConfig {
  readonly keyPerMinute: number;
  readonly ipPerMinute: number;
  readonly visitorPerMinute: number;
}

/** What callers cost: rate limits (workspaces may set their own) and the bound on a keyless question. */
export interface PublicAccessConfig {
  readonly rateLimits: RateLimitsConfig;
  /** Redis for rate-limit counters shared by several processes; null keeps them in memory. */
  readonly redisUrl: string | null;
  /** Longest question a caller without a key may ask, in characters. */
  readonly queryMaxChars: number;
}

/** Where events go out: webhook deliveries and notification e-mail. */
export interface EventsConfig {
  /** SMTP server for notification e-mail; null turns e-mail off. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** The address people reach Parley at, for links in e-mails. */
  readonly publicUrl: string;
  /** Bound on one webhook request, connection to last byte. */
  readonly webhookTimeoutMs: number;
  /** Attempts per delivery; with the job backoff, the default keeps retrying for about a day. */
  readonly deliveryMaxAttempts: number;
  /** Deliveries one process sends at a time, apart from the ingestion jobs. */
  readonly deliveryConcurrency: number;
}

/** One configured model: which provider serves a Parley model name, and as which of its models. */
export interface ModelConfig {
  provider: 'openai' | 'openai-compatible' | 'anthropic' | 'local';
  model?: string;
  baseURL?: string;
  apiKey?: string;
  /** The largest `maxTokens` a question may ask for. */
  maxOutputTokens?: number;
  /** Seconds the provider may stay silent before the call fails. */
  timeoutSeconds?: number;
}

export interface ModelsConfig {
  /** From PARLEY_MODELS: per-name settings, overriding the defaults. */
  readonly models: Readonly<Record<string, ModelConfig>>;
  readonly openai: { baseURL: string | null; apiKey: string | null } | null;
  readonly anthropicApiKey: string | null;
  /** Agent-query quota per workspace (answers per UTC month); null for none. */
  readonly queryQuota: number | null;
}

export interface IngestionConfig {
  /** Largest upload; larger is refused with 413 before it is read whole. */
  readonly maxUploadBytes: number;
  /** Characters of indexed text a workspace may store; null for no quota. */
  readonly quotaChars: number | null;
  /** Let web pages (and later webhooks) reach private, loopback and link-local addresses. */
  readonly allowPrivateUrls: boolean;
  readonly chunkTokens: number;
  readonly chunkOverlapTokens: number;
}

export interface JobsConfig {
  /** Jobs one process runs at a time. */
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export interface EmbeddingsConfig {
  /** An OpenAI-compatible endpoint; unset means the built-in local model. */
  readonly url: string | null;
  readonly model: string | null;
  readonly apiKey: string | null;
  /** Worker threads of the local model. */
  readonly threads: number;
  /** Recent query vectors kept per process, so a repeated question embeds once; 0 turns this off. */
  readonly queryCacheSize: number;
}

/** A configuration value that cannot be used; the message names the variable and what is wrong. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Every variable Parley reads; any other `PARLEY_*` variable is a typo and stops the start. */
const KNOWN_PARLEY_VARIABLES = new Set([
  'PARLEY_DATA_DIR',
  'PARLEY_DATABASE_URL',
  'PARLEY_LOG_LEVEL',
  'PARLEY_BODY_LIMIT_MB',
  'PARLEY_MODELS',
  'PARLEY_OPENAI_BASE_URL',
  'PARLEY_OPENAI_API_KEY',
  'PARLEY_ANTHROPIC_API_KEY',
  'PARLEY_QUOTA_QUERIES',
  'PARLEY_MAX_UPLOAD_MB',
  'PARLEY_QUOTA_CHARS',
  'PARLEY_ALLOW_PRIVATE_URLS',
  'PARLEY_CHUNK_TOKENS',
  'PARLEY_CHUNK_OVERLAP_TOKENS',
  'PARLEY_WORKER_CONCURRENCY',
  'PARLEY_JOB_LEASE_SECONDS',
  'PARLEY_JOB_MAX_ATTEMPTS',
  'PARLEY_JOB_RETRY_BASE_SECONDS',
  'PARLEY_JOB_RETRY_MAX_SECONDS',
  'PARLEY_EMBEDDINGS_URL',
  'PARLEY_EMBEDDINGS_MODEL',
  'PARLEY_EMBEDDINGS_API_KEY',
  'PARLEY_EMBEDDINGS_THREADS',
  'PARLEY_QUERY_CACHE_SIZE',
  'PARLEY_SMTP_URL',
  'PARLEY_MAIL_FROM',
  'PARLEY_PUBLIC_URL',
  'PARLEY_WEBHOOK_TIMEOUT_SECONDS',
  'PARLEY_DELIVERY_MAX_ATTEMPTS',
  'PARLEY_DELIVERY_CONCURRENCY',
  'PARLEY_RATE_LIMIT_KEY_PER_MINUTE',
  'PARLEY_RATE_LIMIT_IP_PER_MINUTE',
  'PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE',
  'PARLEY_REDIS_URL',
  'PARLEY_PUBLIC_QUERY_MAX_CHARS',
]);

type Env = Readonly<Record<string, string | undefined>>;

function readPort(env: Env): number {
  const raw = env.PORT ?? '3000';
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return port;
}

function readStore(env: Env, dataDir: string): StoreConfig {
  const url = env.PARLEY_DATABASE_URL;
  if (url === undefined || url === '') return { kind: 'sqlite', file: path.join(dataDir, 'parley.sqlite') };
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError('PARLEY_DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return { kind: 'postgres', url };
}

function readLogLevel(env: Env): LogLevel {
  const raw = env.PARLEY_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (level === undefined) {
    throw new ConfigError(`PARLEY_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level;
}

/** A positive number from `name`, or `fallback` when unset; `integer` refuses fractions. */
function readNumber(env: Env, name: string, fallback: number, { integer = false, min = 0 } = {}): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= min || (integer && !Number.isInteger(value))) {
    throw new ConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} greater than ${min}, got "${raw}"`);
  }
  return value;
}

const megabytes = (value: number) => Math.round(value * 1024 * 1024);

function readFlag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1/true or 0/false, got "${raw}"`);
}

function readIngestion(env: Env): IngestionConfig {
  const chunkTokens = readNumber(env, 'PARLEY_CHUNK_TOKENS', 400, { integer: true, min: 31 });
  const chunkOverlapTokens = readNumber(env, 'PARLEY_CHUNK_OVERLAP_TOKENS', 60, { integer: true, min: -1 });
  if (chunkOverlapTokens >= chunkTokens / 2) {
    throw new ConfigError('PARLEY_CHUNK_OVERLAP_TOKENS must be less than half of PARLEY_CHUNK_TOKENS');
  }
  const quota = env.PARLEY_QUOTA_CHARS;
  return {
    maxUploadBytes: megabytes(readNumber(env, 'PARLEY_MAX_UPLOAD_MB', 50)),
    quotaChars: quota === undefined || quota === '' ? null : readNumber(env, 'PARLEY_QUOTA_CHARS', 0, { integer: true }),
    allowPrivateUrls: readFlag(env, 'PARLEY_ALLOW_PRIVATE_URLS'),
    chunkTokens,
    chunkOverlapTokens,
  };
}

function readJobs(env: Env): JobsConfig {
  return {
    concurrency: readNumber(env, 'PARLEY_WORKER_CONCURRENCY', 2, { integer: true }),
    leaseMs: readNumber(env, 'PARLEY_JOB_LEASE_SECONDS', 30) * 1000,
    maxAttempts: readNumber(env, 'PARLEY_JOB_MAX_ATTEMPTS', 5, { integer: true }),
    retryBaseMs: readNumber(env, 'PARLEY_JOB_RETRY_BASE_SECONDS', 5) * 1000,
    retryMaxMs: readNumber(env, 'PARLEY_JOB_RETRY_MAX_SECONDS', 24 * 3600) * 1000,
  };
}

function readEmbeddings(env: Env): EmbeddingsConfig {
  const url = env.PARLEY_EMBEDDINGS_URL || null;
  const model = env.PARLEY_EMBEDDINGS_MODEL || null;
  if (url !== null && !/^https?:\/\//.test(url)) throw new ConfigError('PARLEY_EMBEDDINGS_URL must be an http(s) URL');
  if (url !== null && model === null) throw new ConfigError('PARLEY_EMBEDDINGS_MODEL is required with PARLEY_EMBEDDINGS_URL');
  return {
    url,
    model,
    apiKey: env.PARLEY_EMBEDDINGS_API_KEY || null,
    threads: readNumber(env, 'PARLEY_EMBEDDINGS_THREADS', os.availableParallelism(), { integer: true }),
    queryCacheSize: readNumber(env, 'PARLEY_QUERY_CACHE_SIZE', 1000, { integer: true, min: -1 }),
  };
}

function readEvents(env: Env, port: number): EventsConfig {
  const smtpUrl = env.PARLEY_SMTP_URL || null;
  if (smtpUrl !== null && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('PARLEY_SMTP_URL must be an smtp:// or smtps:// URL');
  const publicUrl = (env.PARLEY_PUBLIC_URL || `http://127.0.0.1:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicUrl)) throw new ConfigError('PARLEY_PUBLIC_URL must be an http(s) URL');
  return {
    smtpUrl,
    mailFrom: env.PARLEY_MAIL_FROM || 'Parley <parley@localhost>',
    publicUrl,
    webhookTimeoutMs: readNumber(env, 'PARLEY_WEBHOOK_TIMEOUT_SECONDS', 10) * 1000,
    deliveryMaxAttempts: readNumber(env, 'PARLEY_DELIVERY_MAX_ATTEMPTS', 15, { integer: true }),
    deliveryConcurrency: readNumber(env, 'PARLEY_DELIVERY_CONCURRENCY', 8, { integer: true }),
  };
}

function readPublicAccess(env: Env): PublicAccessConfig {
  const redisUrl = env.PARLEY_REDIS_URL || null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('PARLEY_REDIS_URL must be a redis:// or rediss:// URL');
  return {
    rateLimits: Object.freeze({
      keyPerMinute: readNumber(env, 'PARLEY_RATE_LIMIT_KEY_PER_MINUTE', 1200, { integer: true }),
      ipPerMinute: readNumber(env, 'PARLEY_RATE_LIMIT_IP_PER_MINUTE', 60, { integer: true }),
      visitorPerMinute: readNumber(env, 'PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE', 20, { integer: true }),
    }),
    redisUrl,
    queryMaxChars: readNumber(env, 'PARLEY_PUBLIC_QUERY_MAX_CHARS', 4000, { integer: true }),
  };
}

const PROVIDERS: readonly ModelConfig['provider'][] = ['openai', 'openai-compatible', 'anthropic', 'local'];
const MODELS_SHAPE =
  'PARLEY_MODELS must be a JSON object like {"my-model": {"provider": "openai-compatible", "model": "llama3", "baseURL": "http://…/v1"}}';

function readModelEntries(env: Env): Record<string, ModelConfig> {
  const raw = env.PARLEY_MODELS;
  if (raw === undefined || raw === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(MODELS_SHAPE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(MODELS_SHAPE);
  const entries: Record<string, ModelConfig> = {};
  for (const [name, value] of Object.entries(parsed)) {
    const settings = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const provider = PROVIDERS.find((candidate) => candidate === settings.provider);
    if (provider === undefined) {
      throw new ConfigError(`PARLEY_MODELS.${name}.provider must be one of ${PROVIDERS.join(', ')}`);
    }
    const text = (key: string) => (typeof settings[key] === 'string' ? (settings[key] as string) : undefined);
    const positive = (key: string, integer: boolean) => {
      const value = settings[key];
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'number' || value <= 0 || (integer && !Number.isInteger(value))) {
        throw new ConfigError(`PARLEY_MODELS.${name}.${key} must be a positive ${integer ? 'integer' : 'number'}`);
      }
      return value;
    };
    entries[name] = {
      provider,
      model: text('model'),
      baseURL: text('baseURL'),
      apiKey: text('apiKey'),
      maxOutputTokens: positive('maxOutputTokens', true),
      timeoutSeconds: positive('timeoutSeconds', false),
    };
  }
  return entries;
}

function readModels(env: Env): ModelsConfig {
  const openAiBase = env.PARLEY_OPENAI_BASE_URL || null;
  const openAiKey = env.PARLEY_OPENAI_API_KEY || null;
  const quota = env.PARLEY_QUOTA_QUERIES;
  return {
    models: readModelEntries(env),
    openai: openAiBase === null && openAiKey === null ? null : { baseURL: openAiBase, apiKey: openAiKey },
    anthropicApiKey: env.PARLEY_ANTHROPIC_API_KEY || null,
    queryQuota: quota === undefined || quota === '' ? null : readNumber(env, 'PARLEY_QUOTA_QUERIES', 0, { integer: true }),
  };
}

/** Reads and validates the configuration; throws {@link ConfigError} on the first unusable value. */
export function loadConfig(env: Env = process.env): Config {
  const unknown = Object.keys(env).filter((name) => name.startsWith('PARLEY_') && !KNOWN_PARLEY_VARIABLES.has(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Unknown configuration variable ${unknown.join(', ')}; known: ${[...KNOWN_PARLEY_VARIABLES].join(', ')}`,
    );
  }
  const dataDir = path.resolve(env.PARLEY_DATA_DIR ?? 'data');
  const models = Object.freeze(readModels(env));
  const port = readPort(env);
  return Object.freeze({
    host: env.HOST ?? '127.0.0.1',
    port,
    dataDir,
    store: readStore(env, dataDir),
    logLevel: readLogLevel(env),
    bodyLimitBytes: megabytes(readNumber(env, 'PARLEY_BODY_LIMIT_MB', 1)),
    extraModelNames: Object.freeze(Object.keys(models.models)),
    models,
    ingestion: Object.freeze(readIngestion(env)),
    jobs: Object.freeze(readJobs(env)),
    embeddings: Object.freeze(readEmbeddings(env)),
    events: Object.freeze(readEvents(env, port)),
    publicAccess: Object.freeze(readPublicAccess(env)),
  });
}
