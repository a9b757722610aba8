/** API keys: the bearer credentials that act for a whole workspace, stored as SHA-256 hashes. */
import type { ScopedReads } from './owned-records.js';

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type KeyDeletion = 'deleted' | 'missing' | 'last-key';

/** A workspace's API keys; the secret itself is never stored, only its hash. */
export interface ApiKeyStore extends ScopedReads<ApiKeyRecord> {
  create(key: ApiKeyRecord, hash: string): Promise<void>;
  /**
   * The key whose SHA-256 is `hash`, of whichever workspace: workspace-free because it is how a request's
   * workspace becomes known (authentication), before there is one to scope by.
   */
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  markUsed(workspaceId: string, id: string, at: string): Promise<void>;
  /** Deletes unless it is the workspace's last key; the check and the delete are one atomic step. */
  delete(workspaceId: string, id: string): Promise<KeyDeletion>;
}
