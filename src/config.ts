import os from 'node:os';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import ipaddr from 'ipaddr.js';

/** Where Parley keeps its records: the embedded SQLite file or a PostgreSQL server. */
export type StoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

import { ENVIRONMENT, ModelEntry, type LogLevel } from './config-environment.js';

export type { LogLevel };

/** The whole runtime configuration, read once at start and frozen. */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly store: StoreConfig;
  readonly logLevel: LogLevel;
  /** Largest JSON body accepted, in bytes. */
  readonly bodyLimitBytes: number;
  readonly models: ModelsConfig;
  /**
   * PARLEY_SECRET_KEY: the 32-byte key that seals the API keys of providers connected in the dashboard; null:
   * the first start makes one and keeps it in `secret.key` in the data directory (never in the database).
   */
  readonly secretKey: Uint8Array | null;
  readonly ingestion: IngestionConfig;
  readonly outbound: OutboundRules;
  readonly jobs: JobsConfig;
  readonly embeddings: EmbeddingsConfig;
  readonly events: EventsConfig;
  readonly channels: ChannelsConfig;
  readonly publicAccess: PublicAccessConfig;
  readonly analytics: AnalyticsConfig;
  /** Anyone may create an account on the dashboard (PARLEY_SIGNUP=open); otherwise by invitation only. */
  readonly signUpOpen: boolean;
  readonly server: ServerConfig;
  readonly metrics: MetricsConfig;
}

/** How the HTTP server listens and stops. */
export interface ServerConfig {
  /** PEM files: with both, the server speaks HTTPS itself. */
  readonly tls: { readonly certFile: string; readonly keyFile: string } | null;
  /**
   * Which peers are proxies whose X-Forwarded-For / -Proto / -Host headers are believed (client addresses
   * for rate limits and logs): false (none, the default), true (any), a number of hops, or addresses/CIDRs.
   */
  readonly trustProxy: boolean | number | string;
  /** How long a stopping server lets requests under way finish before it cuts them. */
  readonly shutdownTimeoutMs: number;
}

/** How messages come in from e-mail and messengers. */
export interface ChannelsConfig {
  /** The built-in SMTP listener for mail forwarded to agents' addresses; null: off. */
  readonly mailInbound: { readonly host: string; readonly port: number } | null;
  /** Largest attachment kept with a message that comes in, in bytes. */
  readonly maxAttachmentBytes: number;
}

/** Where Prometheus scrapes the process's metrics. */
export interface MetricsConfig {
  /** `GET /metrics` on the API port answers callers with this bearer token; off when null. */
  readonly token: string | null;
  /** A port of its own for `GET /metrics`, without a token (bind it where only the scraper reaches); null: none. */
  readonly port: number | null;
  readonly host: string;
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

/** What the analytics count. */
export interface AnalyticsConfig {
  /**
   * An agent answer whose best retrieved passage scores below this is a knowledge gap. Hybrid scores are
   * weighted means of normalised signals in [0, 1]. Measured on the test documents with the built-in models:
   * questions the documents answer scored 0.77–0.95 at best, questions they do not (refunds, passwords, a
   * train station, a French question over English text) 0.14–0.47, 0.14 being vector similarity alone.
   */
  readonly knowledgeGapScore: number;
}

/** Where events go out: webhook deliveries and notification e-mail. */
export interface EventsConfig {
  /** SMTP server for notification e-mail; null turns e-mail off. */
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  /** The address people reach Parley at, for links in e-mails. */
  readonly publicUrl: string;
  /** No PARLEY_PUBLIC_URL was given: the address is the local one, whose port may be picked at start (PORT=0). */
  readonly publicUrlIsLocal: boolean;
  /** Bound on one webhook request, connection to last byte. */
  readonly webhookTimeoutMs: number;
  /** Bound on one SMTP conversation (connection, greeting, each command). */
  readonly smtpTimeoutMs: number;
  /** Attempts per delivery; with the job backoff, the default keeps retrying for about a day. */
  readonly deliveryMaxAttempts: number;
  /** Deliveries one process sends at a time, apart from the ingestion jobs. */
  readonly deliveryConcurrency: number;
}

/** One configured model: which provider serves a Parley model name, and as which of its models. */
export type ModelConfig = Static<typeof ModelEntry>;

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
  readonly chunkTokens: number;
  readonly chunkOverlapTokens: number;
  /** Seconds one document's parse and chunking may take; null for the default of the parse limits. */
  readonly parseSeconds: number | null;
}

/**
 * Where Parley may connect on its own (PARLEY_OUTBOUND_ALLOW): webhooks, web pages, model and embeddings
 * providers, SMTP. A destination is allowed when its host is a listed name, or when it is (or resolves to)
 * an address that is public (with `public`) or inside a listed range.
 */
export interface OutboundRules {
  /** The setting as written, for messages: `public` when none was given. */
  readonly setting: string;
  /** Public unicast addresses are allowed. */
  readonly public: boolean;
  /** Address ranges allowed besides, as CIDRs (`127.0.0.0/8`, `::1/128` for `loopback`). */
  readonly ranges: readonly string[];
  /** Host names allowed whatever they resolve to, in lower case; `.example.com` stands for every name under it. */
  readonly hosts: readonly string[];
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
  /** Tokens of one text the remote model reads; null for its default. */
  readonly maxInputTokens: number | null;
  /** Worker threads of the local model. */
  readonly threads: number;
  /**
   * Load the model at start (`parley start`, `serve`, `worker`) rather than on the first question, so the
   * first visitor does not wait for it.
   */
  readonly preload: boolean;
  /** Recent query vectors kept per process, so a repeated question embeds once; 0 turns this off. */
  readonly queryCacheSize: number;
}

/** A configuration value that cannot be used; the message names the variable and what is wrong. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Environment = Static<typeof ENVIRONMENT>;
type Env = Readonly<Record<string, string | undefined>>;

// Environment values are text, so they are coerced; PARLEY_MODELS is JSON, whose types are meant as written.
const options = { useDefaults: true, allErrors: false, strict: false } as const;
const validateEnvironment = new Ajv.default({ ...options, coerceTypes: true }).compile<Environment>(ENVIRONMENT);
const validateModels = new Ajv.default(options).compile<Record<string, ModelConfig>>(Type.Record(Type.String(), ModelEntry));

/** `PORT must be <= 65535, got "70000"`: the variable (or JSON path) named, with what it holds. */
function describeProblem(error: ErrorObject, root: string, source: unknown): string {
  const path = error.instancePath.split('/').filter(Boolean);
  const name = [root, ...path].filter(Boolean).join('.');
  const allowed = error.params.allowedValues;
  const type = error.keyword === 'type' ? String(error.params.type) : undefined;
  const what = Array.isArray(allowed)
    ? `must be one of ${allowed.join(', ')}`
    : type !== undefined
      ? `must be ${type === 'integer' ? 'an integer' : `a ${type}`}`
      : (error.message ?? 'is not valid');
  const got = path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], source);
  const property = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
  return `${name} ${what}${property}${typeof got === 'string' ? `, got "${got}"` : ''}`;
}

/** `value` checked (and, for the environment, coerced in place); errors quote what was written. */
function validated<T>(validate: ValidateFunction<T>, value: unknown, root: string): T {
  const written = structuredClone(value);
  if (!validate(value)) throw new ConfigError(describeProblem(validate.errors![0]!, root, written));
  return value;
}

/** The variables of `env` the schema declares, empty ones left out (an empty value is no value). */
function declaredVariables(env: Env): Record<string, string> {
  const declared = Object.keys(ENVIRONMENT.properties);
  const unknown = Object.keys(env).filter((name) => name.startsWith('PARLEY_') && !declared.includes(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `Unknown configuration variable ${unknown.join(', ')}; known: ${declared.filter((n) => n.startsWith('PARLEY_')).join(', ')}`,
    );
  }
  const present = declared.flatMap((name) => (env[name] === undefined || env[name] === '' ? [] : [[name, env[name]!] as const]));
  const logLevel = env.PARLEY_LOG_LEVEL || env.LOG_LEVEL;
  return { ...Object.fromEntries(present), ...(logLevel ? { PARLEY_LOG_LEVEL: logLevel } : {}) };
}

const MODELS_SHAPE =
  'PARLEY_MODELS must be a JSON object like {"my-model": {"provider": "openai-compatible", "model": "llama3", "baseURL": "http://…/v1"}}';

function readModelEntries(json: string | undefined): Record<string, ModelConfig> {
  if (json === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ConfigError(MODELS_SHAPE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ConfigError(MODELS_SHAPE);
  return validated(validateModels, parsed, 'PARLEY_MODELS');
}

const megabytes = (value: number) => Math.round(value * 1024 * 1024);
const isOn = (value: string) => value === '1' || value === 'true';

/** Reads and validates the configuration; throws {@link ConfigError} on the first unusable value. */
export function loadConfig(env: Env = process.env): Config {
  const v = validated(validateEnvironment, declaredVariables(env), '');
  if (v.PARLEY_CHUNK_OVERLAP_TOKENS >= v.PARLEY_CHUNK_TOKENS / 2) {
    throw new ConfigError('PARLEY_CHUNK_OVERLAP_TOKENS must be less than half of PARLEY_CHUNK_TOKENS');
  }
  if ((v.PARLEY_TLS_CERT === undefined) !== (v.PARLEY_TLS_KEY === undefined)) {
    throw new ConfigError('PARLEY_TLS_CERT and PARLEY_TLS_KEY go together: set both or neither');
  }
  if (v.PARLEY_EMBEDDINGS_URL !== undefined && v.PARLEY_EMBEDDINGS_MODEL === undefined) {
    throw new ConfigError('PARLEY_EMBEDDINGS_MODEL is required with PARLEY_EMBEDDINGS_URL');
  }
  const dataDir = path.resolve(v.PARLEY_DATA_DIR);
  const store: StoreConfig =
    v.PARLEY_DATABASE_URL === undefined
      ? { kind: 'sqlite', file: path.join(dataDir, 'parley.sqlite') }
      : { kind: 'postgres', url: v.PARLEY_DATABASE_URL };
  const models = readModelEntries(v.PARLEY_MODELS);
  const openai = v.PARLEY_OPENAI_BASE_URL ?? v.PARLEY_OPENAI_API_KEY;
  return Object.freeze({
    host: v.HOST,
    port: v.PORT,
    dataDir,
    store,
    logLevel: v.PARLEY_LOG_LEVEL ?? 'info',
    bodyLimitBytes: megabytes(v.PARLEY_BODY_LIMIT_MB),
    secretKey: readSecretKey(v.PARLEY_SECRET_KEY),
    models: Object.freeze({
      models,
      openai: openai === undefined ? null : { baseURL: v.PARLEY_OPENAI_BASE_URL ?? null, apiKey: v.PARLEY_OPENAI_API_KEY ?? null },
      anthropicApiKey: v.PARLEY_ANTHROPIC_API_KEY ?? null,
      queryQuota: v.PARLEY_QUOTA_QUERIES ?? null,
    }),
    ingestion: Object.freeze({
      maxUploadBytes: megabytes(v.PARLEY_MAX_UPLOAD_MB),
      quotaChars: v.PARLEY_QUOTA_CHARS ?? null,
      chunkTokens: v.PARLEY_CHUNK_TOKENS,
      chunkOverlapTokens: v.PARLEY_CHUNK_OVERLAP_TOKENS,
      parseSeconds: v.PARLEY_PARSE_SECONDS ?? null,
    }),
    outbound: readOutboundAllow(v.PARLEY_OUTBOUND_ALLOW, isOn(v.PARLEY_ALLOW_PRIVATE_URLS)),
    jobs: Object.freeze({
      concurrency: v.PARLEY_WORKER_CONCURRENCY,
      leaseMs: v.PARLEY_JOB_LEASE_SECONDS * 1000,
      maxAttempts: v.PARLEY_JOB_MAX_ATTEMPTS,
      retryBaseMs: v.PARLEY_JOB_RETRY_BASE_SECONDS * 1000,
      retryMaxMs: v.PARLEY_JOB_RETRY_MAX_SECONDS * 1000,
    }),
    embeddings: Object.freeze({
      url: v.PARLEY_EMBEDDINGS_URL ?? null,
      model: v.PARLEY_EMBEDDINGS_MODEL ?? null,
      apiKey: v.PARLEY_EMBEDDINGS_API_KEY ?? null,
      maxInputTokens: v.PARLEY_EMBEDDINGS_MAX_INPUT_TOKENS ?? null,
      threads: v.PARLEY_EMBEDDINGS_THREADS ?? os.availableParallelism(),
      preload: isOn(v.PARLEY_EMBEDDINGS_PRELOAD),
      queryCacheSize: v.PARLEY_QUERY_CACHE_SIZE,
    }),
    events: Object.freeze({
      smtpUrl: v.PARLEY_SMTP_URL ?? null,
      smtpTimeoutMs: v.PARLEY_SMTP_TIMEOUT_SECONDS * 1000,
      mailFrom: v.PARLEY_MAIL_FROM,
      publicUrl: (v.PARLEY_PUBLIC_URL ?? `${v.PARLEY_TLS_CERT === undefined ? 'http' : 'https'}://127.0.0.1:${v.PORT}`).replace(/\/+$/, ''),
      publicUrlIsLocal: v.PARLEY_PUBLIC_URL === undefined,
      webhookTimeoutMs: v.PARLEY_WEBHOOK_TIMEOUT_SECONDS * 1000,
      deliveryMaxAttempts: v.PARLEY_DELIVERY_MAX_ATTEMPTS,
      deliveryConcurrency: v.PARLEY_DELIVERY_CONCURRENCY,
    }),
    channels: Object.freeze({
      mailInbound:
        v.PARLEY_MAIL_INBOUND_PORT === undefined ? null : Object.freeze({ host: v.PARLEY_MAIL_INBOUND_HOST, port: v.PARLEY_MAIL_INBOUND_PORT }),
      maxAttachmentBytes: Math.round(v.PARLEY_CHANNEL_ATTACHMENT_MAX_MB * 1024 * 1024),
    }),
    publicAccess: Object.freeze({
      rateLimits: Object.freeze({
        keyPerMinute: v.PARLEY_RATE_LIMIT_KEY_PER_MINUTE,
        ipPerMinute: v.PARLEY_RATE_LIMIT_IP_PER_MINUTE,
        visitorPerMinute: v.PARLEY_RATE_LIMIT_VISITOR_PER_MINUTE,
      }),
      redisUrl: v.PARLEY_REDIS_URL ?? null,
      queryMaxChars: v.PARLEY_PUBLIC_QUERY_MAX_CHARS,
    }),
    analytics: Object.freeze({ knowledgeGapScore: v.PARLEY_KNOWLEDGE_GAP_SCORE }),
    signUpOpen: v.PARLEY_SIGNUP === 'open',
    server: Object.freeze({
      tls:
        v.PARLEY_TLS_CERT === undefined || v.PARLEY_TLS_KEY === undefined
          ? null
          : Object.freeze({ certFile: path.resolve(v.PARLEY_TLS_CERT), keyFile: path.resolve(v.PARLEY_TLS_KEY) }),
      trustProxy: readTrustProxy(v.PARLEY_TRUST_PROXY),
      shutdownTimeoutMs: v.PARLEY_SHUTDOWN_TIMEOUT_SECONDS * 1000,
    }),
    metrics: Object.freeze({
      token: v.PARLEY_METRICS_TOKEN ?? null,
      port: v.PARLEY_METRICS_PORT ?? null,
      host: v.PARLEY_METRICS_HOST,
    }),
  });
}

/** PARLEY_SECRET_KEY's 32 bytes, written as 64 hex digits or as base64 (`openssl rand -base64 32`). */
function readSecretKey(raw: string | undefined): Uint8Array | null {
  if (raw === undefined) return null;
  const text = raw.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (bytes?.length !== 32) {
    throw new ConfigError('PARLEY_SECRET_KEY must be 32 random bytes written as base64 (openssl rand -base64 32) or as 64 hex digits');
  }
  return new Uint8Array(bytes);
}

/** PARLEY_TRUST_PROXY as Fastify's `trustProxy` takes it: true/false, a hop count, or addresses and CIDRs. */
function readTrustProxy(raw: string | undefined): boolean | number | string {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const addresses = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (addresses.length === 0 || !addresses.every((address) => /^[0-9a-f:.]+(\/\d{1,3})?$/.test(address))) {
    throw new ConfigError(`PARLEY_TRUST_PROXY must be true, false, a hop count or addresses/CIDRs, got "${raw}"`);
  }
  return addresses.join(',');
}

/** The words PARLEY_OUTBOUND_ALLOW knows, and the ranges each allows besides public addresses. */
const OUTBOUND_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  ['public', []],
  ['any', ['0.0.0.0/0', '::/0']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
]);

/** `10.0.0.0/8`, `fd00::/8`, or one address as a range of one; IPv4 only in its plain dotted form. */
function rangeOf(entry: string): string[] | undefined {
  const [address = '', bits, ...more] = entry.split('/');
  const family = ipaddr.IPv4.isValidFourPartDecimal(address) ? 4 : ipaddr.IPv6.isValid(address) ? 6 : undefined;
  if (family === undefined || more.length > 0) return undefined;
  const range = `${address}/${bits ?? (family === 4 ? 32 : 128)}`;
  return ipaddr.isValidCIDR(range) ? [range] : undefined;
}

/** `hooks.example.com`, or `.example.com` for the names under it; a last label of digits would be an address. */
function hostOf(entry: string): string | undefined {
  const name = entry.replace(/\.$/, '');
  const labels = (name.startsWith('.') ? name.slice(1) : name).split('.');
  return labels.every((label) => /^[a-z0-9_-]+$/.test(label)) && !/^\d+$/.test(labels.at(-1)!) ? name : undefined;
}

/**
 * PARLEY_OUTBOUND_ALLOW as rules: `public` (the default), `any`, `loopback`, host names, `.suffixes`, IP
 * addresses and CIDRs, comma-separated. PARLEY_ALLOW_PRIVATE_URLS=1 is the older spelling of `any`.
 */
function readOutboundAllow(raw: string | undefined, allowPrivate: boolean): OutboundRules {
  if (raw !== undefined && allowPrivate) {
    throw new ConfigError('PARLEY_ALLOW_PRIVATE_URLS=1 is the older spelling of PARLEY_OUTBOUND_ALLOW=any: set only PARLEY_OUTBOUND_ALLOW');
  }
  const entries = (raw ?? (allowPrivate ? 'any' : 'public'))
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length === 0) throw new ConfigError(`PARLEY_OUTBOUND_ALLOW names nothing, got "${raw}"`);
  const ranges: string[] = [];
  const hosts: string[] = [];
  for (const entry of entries) {
    const range = OUTBOUND_WORDS.get(entry) ?? rangeOf(entry);
    const host = hostOf(entry);
    if (range !== undefined) ranges.push(...range);
    else if (host !== undefined) hosts.push(host);
    else {
      throw new ConfigError(
        `PARLEY_OUTBOUND_ALLOW must be public, any, loopback, or host names, .suffixes, IP addresses and CIDRs, comma-separated; "${entry}" is none of these`,
      );
    }
  }
  return Object.freeze({
    setting: entries.join(','),
    public: entries.includes('public') || entries.includes('any'),
    ranges: Object.freeze(ranges),
    hosts: Object.freeze(hosts),
  });
}
