import { createHash } from 'node:crypto';
import type { ApiKeyRecord, MemberRole, Store } from '../store/store.js';
import { conflict, notFound, unauthorized } from '../errors.js';
import type { WorkspaceCaller } from './callers.js';
import { newId, now, randomToken } from './ids.js';
import { findInWorkspace } from './scoped.js';
import { KeyCache } from './key-cache.js';
import type { TokenGenerations } from './token-generations.js';

const KEY_PREFIX = 'pk_live_';
/** Characters of the key kept in clear: the fixed prefix plus four, enough to tell keys apart. */
const VISIBLE_LENGTH = KEY_PREFIX.length + 4;
/** Refresh `lastUsedAt` at most this often per key, so authenticating is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** A key just created: the only moment its secret exists outside the caller's hands. */
export interface IssuedKey {
  record: ApiKeyRecord;
  secret: string;
}

/** A key that authenticated, and the rights it acts with now. */
export interface AuthenticatedKey {
  key: ApiKeyRecord;
  role: MemberRole;
}

/**
 * A workspace's API keys. Authenticating reads a key from the store once, then from the process's
 * {@link KeyCache} until a revocation anywhere (`TokenGenerations`) says it may have changed.
 */
export class KeyService {
  readonly #cache = new KeyCache();

  constructor(
    private readonly store: Store,
    private readonly generations: TokenGenerations,
  ) {}

  /**
   * A new key of the workspace. `maker` is the person making it (a key made with a key has that key's
   * maker): the key has their rights and loses them with them. Without one it is the operator's (owner).
   */
  async issue(workspaceId: string, name = 'API key', maker: WorkspaceCaller | null = null): Promise<IssuedKey> {
    const secret = KEY_PREFIX + randomToken(24);
    const record: ApiKeyRecord = {
      id: newId(),
      workspaceId,
      name,
      prefix: secret.slice(0, VISIBLE_LENGTH),
      createdAt: now(),
      lastUsedAt: null,
      createdBy: maker?.userId ?? null,
    };
    await this.store.apiKeys.create(record, hashKey(secret));
    return { record, secret };
  }

  /**
   * The key a bearer secret names, with its maker's current role; `UNAUTHORIZED` for an unknown key and for
   * a key whose maker is no longer a member (it lost its rights with them).
   */
  async authenticate(secret: string): Promise<AuthenticatedKey> {
    const hash = hashKey(secret);
    const revision = await this.generations.revision();
    const found = this.#cache.get(hash, revision) ?? (await this.store.apiKeys.findByHash(hash));
    if (found === undefined) {
      this.#cache.delete(hash);
      throw unauthorized('The API key is not valid');
    }
    const { key, makerRole } = found;
    const role = key.createdBy === null ? 'owner' : makerRole;
    if (role === null) throw unauthorized('The API key is not valid: the person who made it is no longer a member of the workspace');
    const usedAt = now();
    if (key.lastUsedAt === null || Date.parse(usedAt) - Date.parse(key.lastUsedAt) > LAST_USED_RESOLUTION_MS) {
      await this.store.apiKeys.markUsed(key.workspaceId, key.id, usedAt);
      this.#cache.set(hash, { key: { ...key, lastUsedAt: usedAt }, makerRole }, revision);
    } else {
      this.#cache.set(hash, found, revision);
    }
    return { key, role };
  }

  list(workspaceId: string): Promise<ApiKeyRecord[]> {
    return this.store.apiKeys.list(workspaceId);
  }

  /**
   * Deletes a key (any member may); a workspace always keeps at least one, so its last key is
   * refused with CONFLICT.
   */
  async revoke(workspaceId: string, id: string): Promise<ApiKeyRecord> {
    const key = await findInWorkspace(this.store.apiKeys, 'API key', workspaceId, id);
    const outcome = await this.store.apiKeys.delete(workspaceId, id);
    if (outcome === 'missing') throw notFound('API key', id);
    if (outcome === 'last-key') {
      throw conflict('This is the workspace’s last API key; create another one before deleting it');
    }
    // Answered once every process has dropped its cached copy: the key is refused from the next request on.
    await this.generations.revokeKey(id);
    return key;
  }
}
