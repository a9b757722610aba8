import { LRUCache } from 'lru-cache';
import type { AgentRecord, ScopedReads, Store } from '../store/store.js';
import { ParleyError } from '../errors.js';
import { callerWorkspace, isWorkspaceCaller, type Caller } from './callers.js';
import { findUsable } from './scoped.js';

/** The resources a caller without a key may reach, by the id in their route. */
export type PublicResource = 'agent' | 'datastore' | 'conversation';

/** Where each kind of public resource is stored. */
const STORED_IN = { agent: 'agents', datastore: 'datastores', conversation: 'conversations' } as const satisfies Record<PublicResource, keyof Store>;

interface Audience {
  workspaceId: string;
  /** Web origins allowed to call; empty: any. */
  allowedOrigins: readonly string[];
}

/** An agent's allowed origins may change; other processes see a change within this time. */
const CACHE_MS = 5_000;

/**
 * What the HTTP edge needs to know about a public resource before the request reaches its use case:
 * whose workspace it is (for that workspace's rate limits) and which web origins may call it (CORS).
 * Cached per process for a few seconds, since every anonymous request asks.
 */
export class PublicAccess {
  readonly #cache = new LRUCache<string, Audience>({ max: 10_000, ttl: CACHE_MS });

  constructor(private readonly store: Store) {}

  async workspaceOf(resource: PublicResource, id: string): Promise<string | undefined> {
    return (await this.audience(resource, id))?.workspaceId;
  }

  /** Whether a page of `origin` may call the resource; unknown resources allow none. */
  async allowsOrigin(resource: PublicResource, id: string, origin: string): Promise<boolean> {
    const audience = await this.audience(resource, id);
    return audience !== undefined && originAllowed(audience.allowedOrigins, origin);
  }

  private async audience(resource: PublicResource, id: string): Promise<Audience | undefined> {
    const key = `${resource}:${id}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined) return cached;
    const workspaceId = await this.store[STORED_IN[resource]].ownerOf(id);
    if (workspaceId === undefined) return undefined;
    // An agent's pages, and those of the agent a conversation is with; a datastore answers any.
    const agentId = resource === 'conversation' ? (await this.store.conversations.find(workspaceId, id))?.agentId : resource === 'agent' ? id : null;
    const agent = agentId === null || agentId === undefined ? undefined : await this.store.agents.find(workspaceId, agentId);
    const audience = { workspaceId, allowedOrigins: agent?.allowedOrigins ?? [] };
    this.#cache.set(key, audience);
    return audience;
  }
}

/**
 * The agent a caller may use (see {@link findUsable}), refusing with 403 the page of an origin the agent does not
 * allow; keys and members are no web page, so their `Origin` is not checked.
 */
export async function usableAgent(agents: ScopedReads<AgentRecord>, caller: Caller, id: string, origin: string | undefined): Promise<AgentRecord> {
  const agent = await findUsable(agents, 'Agent', callerWorkspace(caller), id);
  if (!isWorkspaceCaller(caller) && origin !== undefined && !originAllowed(agent.allowedOrigins, origin)) {
    throw new ParleyError('FORBIDDEN', `This agent does not answer pages of ${origin}`);
  }
  return agent;
}

/** True when `origin` may call an agent that allows `allowedOrigins` (empty: any). */
export const originAllowed = (allowedOrigins: readonly string[], origin: string): boolean =>
  allowedOrigins.length === 0 || allowedOrigins.includes(origin);
