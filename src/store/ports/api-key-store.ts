/** API keys: the bearer credentials that act for a workspace with their maker's rights, stored as SHA-256 hashes. */
import type { MemberRole } from './member-store.js';
import type { ScopedReads } from './owned-records.js';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** The user who made it; null for the operator's keys (the first start, `parley keys create`). */
  createdBy: string | null;
}

/** A key found by its secret, with what its maker may do in the key's workspace now. */
export interface KeyWithMaker {
  key: ApiKeyRecord;
  /** The maker's role as an active member; null when the key has no maker or its maker is no member any more. */
  makerRole: MemberRole | null;
}

export type KeyDeletion = 'deleted' | 'missing' | 'last-key';

/** A workspace's API keys; the secret itself is never stored, only its hash. */
export interface ApiKeyStore extends ScopedReads<ApiKeyRecord> {
  create(key: ApiKeyRecord, hash: string): Promise<void>;
  /**
   * The key whose SHA-256 is `hash`, of whichever workspace, with its maker's current role (one query):
   * workspace-free because it is how a request's workspace becomes known (authentication).
   */
  findByHash(hash: string): Promise<KeyWithMaker | undefined>;
  markUsed(workspaceId: string, id: string, at: string): Promise<void>;
  /** Deletes unless it is the workspace's last key; the check and the delete are one atomic step. */
  delete(workspaceId: string, id: string): Promise<KeyDeletion>;
}
