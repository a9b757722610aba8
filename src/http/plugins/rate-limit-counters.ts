import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { rateLimitFallbacks, rateLimitStore } from '../../observability/instruments.js';

/** A request counted: the requests of its window so far, and the milliseconds left of the window. */
export interface Count {
  current: number;
  ttl: number;
}

/** Where the counting happens: Redis, shared by every process, or this process's memory. */
type CounterStore = 'redis' | 'memory';

// One round trip: the window starts with its first request and ends with its key.
const COUNT_IN_REDIS = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

const READ_IN_REDIS = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
return {tonumber(current), math.max(0, redis.call('PTTL', KEYS[1]))}`;

const KEY_PREFIX = 'parley-rate-limit:';

/** Fixed windows in this process's memory; the least recently counted callers are forgotten first. */
class MemoryCounters {
  readonly #windows = new LRUCache<string, { current: number; endsAt: number }>({ max: 100_000 });

  count(key: string, windowMs: number): Count {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { current: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.current += 1;
    return { current: window.current, ttl: window.endsAt - now };
  }

  read(key: string): Count {
    const now = Date.now();
    const window = this.#windows.peek(key);
    return window === undefined || window.endsAt <= now ? { current: 0, ttl: 0 } : { current: window.current, ttl: window.endsAt - now };
  }
}

export interface RateLimitCountersOptions {
  log: FastifyBaseLogger;
  /** While counting in memory, how often to ask Redis whether it answers again. */
  probeEveryMs: number;
}

/**
 * The rate limiter's counters: in Redis when one is configured and answers, so every process shares them;
 * in this process's memory otherwise. A circuit breaker: the first command Redis fails (the client fails
 * it at once while disconnected, after its command timeout when Redis does not answer) switches to
 * memory, so an outage costs one request one timeout at most; a ping every `probeEveryMs` switches back once
 * Redis answers again (the client reconnects by itself). Each switch is logged once and shown in /metrics.
 */
export class RateLimitCounters {
  readonly #memory = new MemoryCounters();
  #store: CounterStore;
  #probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly options: RateLimitCountersOptions,
  ) {
    this.#store = redis === undefined ? 'memory' : 'redis';
    this.#show();
  }

  /** Counts one more request of `key` in its window of `windowMs`. */
  count(key: string, windowMs: number): Promise<Count> {
    return this.#inRedisOr(() => this.#memory.count(key, windowMs), COUNT_IN_REDIS, key, windowMs);
  }

  /** The count of `key` without adding to it. */
  read(key: string): Promise<Count> {
    return this.#inRedisOr(() => this.#memory.read(key), READ_IN_REDIS, key);
  }

  async #inRedisOr(inMemory: () => Count, script: string, key: string, ...args: number[]): Promise<Count> {
    if (this.redis === undefined || this.#store === 'memory') return inMemory();
    try {
      const [current, ttl] = (await this.redis.eval(script, 1, KEY_PREFIX + key, ...args)) as [number, number];
      return { current, ttl };
    } catch (error) {
      this.fallBack(error);
      return inMemory();
    }
  }

  /** Counts in memory from now on, until Redis answers a ping. */
  fallBack(error: unknown): void {
    if (this.#store === 'memory') return;
    this.#store = 'memory';
    this.#show();
    rateLimitFallbacks.inc();
    this.options.log.warn({ err: error }, 'rate-limit store unreachable: counting in this process’s memory until Redis answers');
    // A connected Redis that stopped answering would keep every ping sent to it: a new connection is ready only once it answers.
    if (this.redis?.status === 'ready') this.redis.disconnect(true);
    this.#probe = setInterval(() => void this.#tryRedis(), this.options.probeEveryMs);
    this.#probe.unref();
  }

  stop(): void {
    clearInterval(this.#probe);
  }

  async #tryRedis(): Promise<void> {
    try {
      await this.redis?.ping();
    } catch {
      return;
    }
    if (this.#store === 'redis') return;
    clearInterval(this.#probe);
    this.#store = 'redis';
    this.#show();
    this.options.log.info('rate-limit store reachable again: counting in Redis');
  }

  #show(): void {
    rateLimitStore.set({ store: this.#store }, 1);
    rateLimitStore.set({ store: this.#store === 'redis' ? 'memory' : 'redis' }, 0);
  }
}
