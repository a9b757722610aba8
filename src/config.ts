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

function readBodyLimit(env: Env): number {
  const raw = env.PARLEY_BODY_LIMIT_MB ?? '1';
  const megabytes = Number(raw);
  if (!Number.isFinite(megabytes) || megabytes <= 0) {
    throw new ConfigError(`PARLEY_BODY_LIMIT_MB must be a positive number, got "${raw}"`);
  }
  return Math.round(megabytes * 1024 * 1024);
}

function readExtraModelNames(env: Env): string[] {
  const raw = env.PARLEY_MODELS;
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('PARLEY_MODELS must be a JSON object mapping model names to their settings');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError('PARLEY_MODELS must be a JSON object mapping model names to their settings');
  }
  return Object.keys(parsed);
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
  return Object.freeze({
    host: env.HOST ?? '127.0.0.1',
    port: readPort(env),
    dataDir,
    store: readStore(env, dataDir),
    logLevel: readLogLevel(env),
    bodyLimitBytes: readBodyLimit(env),
    extraModelNames: Object.freeze(readExtraModelNames(env)),
  });
}
