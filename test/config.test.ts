import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { ENVIRONMENT } from '../src/config-environment.js';

describe('configuration', () => {
  it('defaults to the embedded store under ./data on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.store).toEqual({ kind: 'sqlite', file: path.resolve('data', 'parley.sqlite') });
    expect(config.logLevel).toBe('info');
  });

  it('sends no e-mail by default and links e-mails to the local address', () => {
    const { events } = loadConfig({ PORT: '8080' });
    expect(events).toMatchObject({ smtpUrl: null, publicUrl: 'http://127.0.0.1:8080', webhookTimeoutMs: 10_000, deliveryMaxAttempts: 15 });
    expect(loadConfig({ PARLEY_PUBLIC_URL: 'https://support.example.com/' }).events.publicUrl).toBe('https://support.example.com');
  });

  it('keeps 1,000 query vectors unless told otherwise; 0 turns the cache off', () => {
    expect(loadConfig({}).embeddings.queryCacheSize).toBe(1000);
    expect(loadConfig({ PARLEY_QUERY_CACHE_SIZE: '0' }).embeddings.queryCacheSize).toBe(0);
  });

  it('reads a model’s output bound and timeout from PARLEY_MODELS', () => {
    const config = loadConfig({
      PARLEY_MODELS:
        '{"m": {"provider": "openai-compatible", "model": "x", "baseURL": "http://h/v1", "maxOutputTokens": 2048, "timeoutSeconds": 1.5}}',
    });
    expect(config.models.models.m).toMatchObject({ maxOutputTokens: 2048, timeoutSeconds: 1.5 });
  });

  it('reads PARLEY_SECRET_KEY as 32 bytes of base64 or hex, and refuses anything weaker', () => {
    expect(loadConfig({}).secretKey).toBeNull();
    const bytes = Buffer.alloc(32, 9);
    expect(Buffer.from(loadConfig({ PARLEY_SECRET_KEY: bytes.toString('base64') }).secretKey!)).toEqual(bytes);
    expect(Buffer.from(loadConfig({ PARLEY_SECRET_KEY: bytes.toString('hex') }).secretKey!)).toEqual(bytes);
    for (const weak of ['password', Buffer.alloc(16).toString('base64'), 'z'.repeat(64)]) {
      expect(() => loadConfig({ PARLEY_SECRET_KEY: weak })).toThrow(/PARLEY_SECRET_KEY must be 32 random bytes/);
    }
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
    [{ PARLEY_MODELS: '{"m": {"provider": "local", "maxOutputTokens": 0}}' }, /PARLEY_MODELS\.m\.maxOutputTokens must be >= 1/],
    [{ PARLEY_MODELS: '{"m": {"provider": "local", "maxOutputTokens": 1.5}}' }, /PARLEY_MODELS\.m\.maxOutputTokens/],
    [{ PARLEY_MODELS: '{"m": {"provider": "local", "timeoutSeconds": "30"}}' }, /PARLEY_MODELS\.m\.timeoutSeconds must be a number/],
    [{ PARLEY_PORT: '1' }, /Unknown configuration variable PARLEY_PORT/],
    [{ PARLEY_SMTP_URL: 'mail.example.com:25' }, /PARLEY_SMTP_URL/],
    [{ PARLEY_PUBLIC_URL: 'support.example.com' }, /PARLEY_PUBLIC_URL/],
    [{ PARLEY_WEBHOOK_TIMEOUT_SECONDS: '0' }, /PARLEY_WEBHOOK_TIMEOUT_SECONDS/],
    [{ PARLEY_DELIVERY_MAX_ATTEMPTS: '2.5' }, /PARLEY_DELIVERY_MAX_ATTEMPTS/],
    [{ PARLEY_QUERY_CACHE_SIZE: '-1' }, /PARLEY_QUERY_CACHE_SIZE/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads bounds as written: at least 32 chunk tokens means 32 is accepted and 31 refused', () => {
    expect(loadConfig({ PARLEY_CHUNK_TOKENS: '32', PARLEY_CHUNK_OVERLAP_TOKENS: '0' }).ingestion.chunkTokens).toBe(32);
    expect(() => loadConfig({ PARLEY_CHUNK_TOKENS: '31', PARLEY_CHUNK_OVERLAP_TOKENS: '0' })).toThrow(/PARLEY_CHUNK_TOKENS must be >= 32, got "31"/);
    expect(loadConfig({ PARLEY_QUERY_CACHE_SIZE: '0' }).embeddings.queryCacheSize).toBe(0);
    expect(() => loadConfig({ PARLEY_WORKER_CONCURRENCY: '0' })).toThrow(/PARLEY_WORKER_CONCURRENCY must be >= 1/);
  });

  it('treats an empty value as unset, and reads LOG_LEVEL when PARLEY_LOG_LEVEL is not set', () => {
    expect(loadConfig({ PARLEY_DATABASE_URL: '', PARLEY_SMTP_URL: '' })).toMatchObject({ store: { kind: 'sqlite' }, events: { smtpUrl: null } });
    expect(loadConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'warn', PARLEY_LOG_LEVEL: 'error' }).logLevel).toBe('error');
  });

  it('gives SMTP its own timeout, apart from the webhook one', () => {
    const { events } = loadConfig({ PARLEY_SMTP_TIMEOUT_SECONDS: '5', PARLEY_WEBHOOK_TIMEOUT_SECONDS: '2' });
    expect(events).toMatchObject({ smtpTimeoutMs: 5_000, webhookTimeoutMs: 2_000 });
    expect(loadConfig({}).events.smtpTimeoutMs).toBe(30_000);
  });

  it('serves HTTPS only with both a certificate and a key, and links to https then', () => {
    expect(loadConfig({}).server.tls).toBeNull();
    const tls = loadConfig({ PARLEY_TLS_CERT: 'cert.pem', PARLEY_TLS_KEY: '/etc/key.pem', PORT: '8443' });
    expect(tls.server.tls).toEqual({ certFile: path.resolve('cert.pem'), keyFile: '/etc/key.pem' });
    expect(tls.events.publicUrl).toBe('https://127.0.0.1:8443');
    expect(() => loadConfig({ PARLEY_TLS_CERT: 'cert.pem' })).toThrow(/PARLEY_TLS_CERT and PARLEY_TLS_KEY go together/);
  });

  it('trusts no proxy by default; any, a hop count or listed addresses when told', () => {
    const trust = (value?: string) => loadConfig(value === undefined ? {} : { PARLEY_TRUST_PROXY: value }).server.trustProxy;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 127.0.0.1,::1')).toBe('10.0.0.0/8,127.0.0.1,::1');
    expect(() => trust('the proxy')).toThrow(/PARLEY_TRUST_PROXY must be true, false, a hop count or addresses\/CIDRs, got "the proxy"/);
  });

  it('connects to public addresses by default; PARLEY_OUTBOUND_ALLOW lists words, names, addresses and ranges', () => {
    const outbound = (env: Record<string, string>) => loadConfig(env).outbound;
    expect(outbound({})).toEqual({ setting: 'public', public: true, ranges: [], hosts: [] });
    expect(outbound({ PARLEY_OUTBOUND_ALLOW: 'loopback' })).toEqual({
      setting: 'loopback',
      public: false,
      ranges: ['127.0.0.0/8', '::1/128'],
      hosts: [],
    });
    expect(outbound({ PARLEY_OUTBOUND_ALLOW: ' Public, 10.0.0.0/8 ,192.168.1.5,fd00::/8, Hooks.Example.com., .corp.example' })).toEqual({
      setting: 'public,10.0.0.0/8,192.168.1.5,fd00::/8,hooks.example.com.,.corp.example',
      public: true,
      ranges: ['10.0.0.0/8', '192.168.1.5/32', 'fd00::/8'],
      hosts: ['hooks.example.com', '.corp.example'],
    });
    // The older flag still works: it meant "private addresses too", which is every address.
    expect(outbound({ PARLEY_ALLOW_PRIVATE_URLS: '1' })).toEqual({ setting: 'any', public: true, ranges: ['0.0.0.0/0', '::/0'], hosts: [] });
    expect(outbound({ PARLEY_ALLOW_PRIVATE_URLS: '0', PARLEY_OUTBOUND_ALLOW: 'loopback' }).setting).toBe('loopback');
    expect(() => outbound({ PARLEY_ALLOW_PRIVATE_URLS: '1', PARLEY_OUTBOUND_ALLOW: 'loopback' })).toThrow(
      /older spelling of PARLEY_OUTBOUND_ALLOW=any: set only PARLEY_OUTBOUND_ALLOW/,
    );
    for (const entry of ['10.0.0.0/33', '127.1', '0x7f.1', 'http://hooks.example.com', 'hooks example', '10.0.0.0/8/8']) {
      expect(() => outbound({ PARLEY_OUTBOUND_ALLOW: `loopback,${entry}` }), entry).toThrow(
        new ConfigError(
          `PARLEY_OUTBOUND_ALLOW must be public, any, loopback, or host names, .suffixes, IP addresses and CIDRs, comma-separated; "${entry}" is none of these`,
        ),
      );
    }
    expect(() => outbound({ PARLEY_OUTBOUND_ALLOW: ' , ' })).toThrow(/PARLEY_OUTBOUND_ALLOW names nothing/);
  });

  it('takes a metrics token of 16 characters or more, and a metrics port', () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null, host: '127.0.0.1' });
    expect(loadConfig({ PARLEY_METRICS_TOKEN: 'a'.repeat(16), PARLEY_METRICS_PORT: '9100' }).metrics).toMatchObject({
      token: 'a'.repeat(16),
      port: 9100,
    });
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(loadConfig({}).server.shutdownTimeoutMs).toBe(10_000);
  });

  it('is documented in the README, variable by variable', () => {
    const readme = fs.readFileSync(path.resolve(import.meta.dirname, '../README.md'), 'utf8');
    const missing = Object.keys(ENVIRONMENT.properties).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
