import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('defaults to the embedded store under ./data on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.store).toEqual({ kind: 'sqlite', file: path.resolve('data', 'parley.sqlite') });
    expect(config.logLevel).toBe('info');
  });

  it('switches to PostgreSQL for a postgres:// URL', () => {
    const config = loadConfig({ PARLEY_DATABASE_URL: 'postgres://u@db:5432/parley' });
    expect(config.store).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/parley' });
  });

  it.each([
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: '-1' }, /PORT/],
    [{ PARLEY_DATABASE_URL: 'mysql://x' }, /PARLEY_DATABASE_URL/],
    [{ PARLEY_LOG_LEVEL: 'loud' }, /PARLEY_LOG_LEVEL/],
    [{ PARLEY_BODY_LIMIT_MB: '0' }, /PARLEY_BODY_LIMIT_MB/],
    [{ PARLEY_MODELS: '["a"]' }, /PARLEY_MODELS/],
    [{ PARLEY_MODELS: '{nope' }, /PARLEY_MODELS/],
    [{ PARLEY_PORT: '1' }, /Unknown configuration variable PARLEY_PORT/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
