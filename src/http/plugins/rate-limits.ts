import { once } from 'node:events';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { ParleyError } from '../../errors.js';
import type { PublicAccess } from '../../domain/public-access.js';
import type { RateLimits, RateLimitSettings } from '../../domain/rate-limits.js';
import { RateLimitCounters, type Count } from './rate-limit-counters.js';

type Dimension = 'key' | 'ip' | 'visitor';

/** One counter a request goes through: its key in the store and the workspace's limit for it. */
interface Check {
  key: string;
  max: number;
}

const WINDOW_MS = 60_000;

const WHO: Readonly<Record<Dimension, string>> = {
  key: 'this API key',
  ip: 'your address',
  visitor: 'this visitor',
};

const LIMIT_OF: Readonly<Record<Dimension, keyof RateLimits>> = {
  key: 'keyPerMinute',
  ip: 'ipPerMinute',
  visitor: 'visitorPerMinute',
};

export interface RateLimitOptions {
  settings: RateLimitSettings;
  access: PublicAccess;
}

type Answer = (error: Error | null, result?: Count) => void;

/** The longest Redis may take to connect or to answer before the counters move to memory. */
const REDIS_TIMEOUT_MS = 250;

/**
 * The counters' store: Redis when configured, so processes share them, falling back to this process's
 * memory while Redis is unreachable (see {@link RateLimitCounters}); in memory (per process) otherwise.
 */
export async function registerRateLimitStore(app: FastifyInstance, redisUrl: string | null): Promise<void> {
  const redis =
    redisUrl === null
      ? undefined
      : new Redis(redisUrl, {
          connectTimeout: REDIS_TIMEOUT_MS,
          commandTimeout: REDIS_TIMEOUT_MS,
          // While disconnected a command fails at once rather than waiting in a queue for the connection.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          // Reconnects in the background, attempts 100 ms further apart each time, 2 s at most.
          retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
        });
  const counters = new RateLimitCounters(redis, { log: app.log, probeEveryMs: 1_000 });
  if (redis !== undefined) {
    // Each failed reconnection is reported; the counters log the switch to memory and back once.
    redis.on('error', (error: Error) => app.log.debug({ err: error }, 'rate-limit store connection failed'));
    await once(redis, 'ready', { signal: AbortSignal.timeout(REDIS_TIMEOUT_MS) }).catch((error: unknown) => counters.fallBack(error));
  }
  app.addHook('onClose', async () => {
    counters.stop();
    redis?.disconnect();
  });
  // The plugin makes its store from a class; every limiter counts in the same counters (keys name the dimension).
  class Store implements FastifyRateLimitStore {
    incr(key: string, callback: Answer, timeWindow: number): void {
      counters.count(key, timeWindow).then((count) => callback(null, count), callback);
    }
    read(key: string, callback: Answer): void {
      counters.read(key).then((count) => callback(null, count), callback);
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  await app.register(rateLimit, { global: false, timeWindow: WINDOW_MS, store: Store });
}

/** Throws `429 RATE_LIMIT` (with Retry-After) when a limiter says the request is one too many. */
export function refuseWhenExceeded(who: string, result: { isExceeded?: boolean; max?: number; ttlInSeconds?: number }): void {
  if (!result.isExceeded) return;
  const retryAfterSeconds = Math.max(1, result.ttlInSeconds ?? 1);
  throw new ParleyError('RATE_LIMIT', `Too many requests from ${who}; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
}

/**
 * Rate limits, per minute: every API key and signed-in member; on public routes every client IP and every
 * visitor, counted per workspace (one busy site does not spend another's allowance) with the workspace's
 * own limits. Each answer carries `RateLimit-Limit/Remaining/Reset` of its tightest counter; past a limit,
 * 429 `RATE_LIMIT` with `Retry-After`. Needs {@link registerRateLimitStore} on an enclosing scope.
 */
export function limitCallers(scope: FastifyInstance, options: RateLimitOptions): void {
  const planned = new WeakMap<FastifyRequest, Partial<Record<Dimension, Check>>>();
  const limiter = (dimension: Dimension) =>
    scope.createRateLimit({
      keyGenerator: (request) => planned.get(request)?.[dimension]?.key ?? 'unplanned',
      max: async (request) => planned.get(request)?.[dimension]?.max ?? 1,
    });
  const limiters = { key: limiter('key'), ip: limiter('ip'), visitor: limiter('visitor') };

  const plan = async (request: FastifyRequest): Promise<Partial<Record<Dimension, Check>>> => {
    const { caller } = request;
    if (caller.kind === 'key' || caller.kind === 'member') {
      const limits = await options.settings.forWorkspace(caller.workspaceId);
      // A signed-in member spends an allowance of their own, as a key does.
      const key = caller.kind === 'key' ? `key:${caller.keyId}` : `member:${caller.workspaceId}:${caller.userId}`;
      return { key: { key, max: limits.keyPerMinute } };
    }
    const resource = request.routeOptions.config.publicResource;
    const id = (request.params as { id?: unknown }).id;
    if (resource === undefined) return {};
    // A route whose path names no resource counts the address under the default limits.
    const workspaceId = typeof id === 'string' ? await options.access.workspaceOf(resource, id) : undefined;
    const limits = workspaceId === undefined ? options.settings.defaults : await options.settings.forWorkspace(workspaceId);
    const checks: Partial<Record<Dimension, Check>> = { ip: { key: `ip:${workspaceId ?? '-'}:${request.ip}`, max: limits.ipPerMinute } };
    if (caller.kind === 'visitor') {
      const { grant } = caller;
      const visitorLimits = grant.workspaceId === workspaceId ? limits : await options.settings.forWorkspace(grant.workspaceId);
      checks.visitor = { key: `visitor:${grant.workspaceId}:${grant.visitorId}`, max: visitorLimits.visitorPerMinute };
    }
    return checks;
  };

  scope.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const checks = await plan(request);
    planned.set(request, checks);
    let tightest: { dimension: Dimension; max: number; remaining: number; resetSeconds: number; exceeded: boolean } | undefined;
    for (const dimension of Object.keys(checks) as Dimension[]) {
      const result = await limiters[dimension](request);
      if (result.isAllowed) continue;
      if (tightest === undefined || result.isExceeded || result.remaining < tightest.remaining) {
        tightest = { dimension, max: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds, exceeded: result.isExceeded };
      }
      if (result.isExceeded) break;
    }
    if (tightest === undefined) return;
    reply.header('ratelimit-limit', tightest.max);
    reply.header('ratelimit-remaining', Math.max(0, tightest.remaining));
    reply.header('ratelimit-reset', tightest.resetSeconds);
    if (!tightest.exceeded) return;
    const retryAfterSeconds = Math.max(1, tightest.resetSeconds);
    throw new ParleyError(
      'RATE_LIMIT',
      `Too many requests from ${WHO[tightest.dimension]}: at most ${tightest.max} a minute (${LIMIT_OF[tightest.dimension]}); retry in ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  });
}
