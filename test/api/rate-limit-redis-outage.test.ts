import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { TestParley } from '../support/parley.js';
import { valueOf } from '../support/metrics.js';
import { STORE_KINDS } from '../support/stores.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { until } from '../support/until.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
/** Each request of these tests answers within this, where a limiter waiting on Redis took 1.3 to 4 s. */
const FAST_MS = 500;

/** A loopback port nothing listens on: connections to it are refused. */
async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Log lines of one Parley, as written (JSON). */
const logOf = (lines: string[]) => ({ write: (line: string) => void lines.push(line) });
const said = (lines: string[], words: string) => lines.filter((line) => (JSON.parse(line) as { msg?: string }).msg?.startsWith(words)).length;
const FELL_BACK = 'rate-limit store unreachable';
const CAME_BACK = 'rate-limit store reachable again';

async function storeShown(parley: TestParley): Promise<{ redis: number; memory: number; fallbacks: number }> {
  const text = await (await fetch(`${parley.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return {
    redis: valueOf(text, 'parley_rate_limit_store', { store: 'redis' }),
    memory: valueOf(text, 'parley_rate_limit_store', { store: 'memory' }),
    fallbacks: valueOf(text, 'parley_rate_limit_fallbacks_total'),
  };
}

/** A new key of a workspace limited to `perMinute` keyed requests a minute: a counter of its own. */
async function limitedKey(parley: TestParley, perMinute: number): Promise<string> {
  const ws = await parley.newWorkspace();
  await parley.call('PATCH', '/workspace/settings', { key: ws.key, body: { rateLimits: { keyPerMinute: perMinute } } });
  return (await parley.core.services.keys.issue(ws.id)).secret;
}

/** `GET /agents` with `key` on each server in turn: the statuses, and the slowest answer in ms. */
async function callInTurn(servers: TestParley[], key: string): Promise<{ statuses: number[]; slowestMs: number }> {
  const statuses: number[] = [];
  let slowestMs = 0;
  for (const server of servers) {
    const started = performance.now();
    statuses.push((await server.call('GET', '/agents', { key })).status);
    slowestMs = Math.max(slowestMs, performance.now() - started);
  }
  return { statuses, slowestMs };
}

const times = <T>(count: number, value: T): T[] => Array.from({ length: count }, () => value);

describe.each(STORE_KINDS)('rate limits while Redis is unreachable, on %s', (kind) => {
  const proxies: TcpProxy[] = [];
  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
  });
  /** A proxy in front of the machine's Redis, closed when the file is done. */
  async function proxyToRedis(): Promise<TcpProxy> {
    const proxy = await TcpProxy.inFrontOf(REDIS_URL);
    proxies.push(proxy);
    return proxy;
  }

  it.for([
    ['refuses connections', async () => `redis://127.0.0.1:${await refusingPort()}`],
    [
      'takes connections and never answers',
      async () => {
        const proxy = await proxyToRedis();
        proxy.silence();
        return proxy.proxied(REDIS_URL);
      },
    ],
  ] as const)('with a Redis that %s, keyed requests stay fast and are limited in memory', async ([, redisUrl], { startParley }) => {
    const lines: string[] = [];
    const env = { PARLEY_REDIS_URL: await redisUrl(), PARLEY_METRICS_TOKEN: METRICS_TOKEN, PARLEY_LOG_LEVEL: 'info' };
    const parley = await startParley(kind, { env, logStream: logOf(lines) });
    const key = await limitedKey(parley, 10);
    const { statuses, slowestMs } = await callInTurn(times(15, parley), key);
    expect(statuses).toEqual([...times(10, 200), ...times(5, 429)]);
    expect(slowestMs).toBeLessThan(FAST_MS);
    expect(await storeShown(parley)).toMatchObject({ redis: 0, memory: 1, fallbacks: expect.any(Number) });
    expect((await storeShown(parley)).fallbacks).toBeGreaterThanOrEqual(1);
    expect(said(lines, FELL_BACK)).toBe(1);
  });

  it('falls back to memory when Redis goes away, and counts in Redis again once it is back', async ({ startParley }) => {
    const proxy = await proxyToRedis();
    const lines: string[] = [];
    // `direct` reaches Redis all along; `proxied` through a proxy the test cuts. Started last, `proxied` owns the gauge.
    const direct = await startParley(kind, { env: { PARLEY_REDIS_URL: REDIS_URL } });
    const env = { PARLEY_REDIS_URL: proxy.proxied(REDIS_URL), PARLEY_METRICS_TOKEN: METRICS_TOKEN, PARLEY_LOG_LEVEL: 'info' };
    const proxied = await startParley(kind, { env, scratch: direct.scratch, logStream: logOf(lines) });
    const sharing = [proxied, direct, proxied, direct, proxied, direct];
    // Shared counters: four answers between the two servers, then both refuse.
    const shared = [200, 200, 200, 200, 429, 429];

    expect((await callInTurn(sharing, await limitedKey(direct, 4))).statuses).toEqual(shared);

    // Redis hangs, then restarts (connections reset, new ones refused).
    const outages = [
      { cut: () => proxy.silence(), restore: async () => proxy.resume() },
      { cut: () => proxy.close(), restore: () => proxy.open() },
    ];
    for (const outage of outages) {
      await outage.cut();
      // `proxied` counts alone: its four answers, while `direct` still answers the same key from Redis's counter.
      const alone = await callInTurn([...times(6, proxied), direct], await limitedKey(direct, 4));
      expect(alone.statuses).toEqual([...times(4, 200), 429, 429, 200]);
      expect(alone.slowestMs).toBeLessThan(FAST_MS);
      expect(await storeShown(proxied)).toMatchObject({ redis: 0, memory: 1 });

      await outage.restore();
      await until(
        () => storeShown(proxied),
        (shown) => shown.redis === 1 && shown.memory === 0,
        10_000,
      );
      expect((await callInTurn(sharing, await limitedKey(direct, 4))).statuses).toEqual(shared);
    }
    expect([said(lines, FELL_BACK), said(lines, CAME_BACK)]).toEqual([2, 2]);
  });
});
