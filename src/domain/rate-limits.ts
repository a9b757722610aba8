import { LRUCache } from 'lru-cache';
import type { Store } from '../store/store.js';
import { isJsonObject } from '../text/json-object.js';

/** Requests per minute: per API key, and on public routes per client IP and per visitor, in one workspace. */
export interface RateLimits {
  keyPerMinute: number;
  ipPerMinute: number;
  visitorPerMinute: number;
}

/** A workspace's own limits; a field left out keeps its value, null returns it to the server's default. */
export type RateLimitChanges = Partial<Record<keyof RateLimits, number | null>>;

const FIELDS = ['keyPerMinute', 'ipPerMinute', 'visitorPerMinute'] as const satisfies readonly (keyof RateLimits)[];

/** How long a process keeps a workspace's limits before reading them again (other processes' changes). */
const CACHE_MS = 10_000;

/** The saved overrides of the workspace settings object; anything malformed is ignored. */
function savedOverrides(settings: Record<string, unknown>): Partial<RateLimits> {
  const saved = isJsonObject(settings.rateLimits) ? settings.rateLimits : {};
  return Object.fromEntries(FIELDS.flatMap((field) => (typeof saved[field] === 'number' && saved[field] > 0 ? [[field, saved[field]]] : [])));
}

/**
 * The rate limits each workspace runs under: the server's defaults (configuration) with the workspace's
 * own overrides. Read on every rate-limited request, so kept per process for a few seconds.
 */
export class RateLimitSettings {
  readonly #cache = new LRUCache<string, RateLimits>({ max: 10_000, ttl: CACHE_MS });

  constructor(
    private readonly store: Store,
    readonly defaults: RateLimits,
  ) {}

  async forWorkspace(workspaceId: string): Promise<RateLimits> {
    const cached = this.#cache.get(workspaceId);
    if (cached !== undefined) return cached;
    const limits = { ...this.defaults, ...savedOverrides(await this.store.workspaces.settings(workspaceId)) };
    this.#cache.set(workspaceId, limits);
    return limits;
  }

  async update(workspaceId: string, changes: RateLimitChanges): Promise<RateLimits> {
    const settings = await this.store.workspaces.settings(workspaceId);
    const overrides: Record<string, number> = { ...savedOverrides(settings) };
    for (const field of FIELDS) {
      const value = changes[field];
      if (value === null) delete overrides[field];
      else if (value !== undefined) overrides[field] = value;
    }
    await this.store.workspaces.saveSettings(workspaceId, { ...settings, rateLimits: overrides });
    this.#cache.delete(workspaceId);
    return this.forWorkspace(workspaceId);
  }
}
