/**
 * What the records of every workspace-owned resource share: how they are read by id, which of their
 * fields a caller may change, and who may see them.
 */

/** Who may use a resource without the workspace's key: anyone (`public`) or its workspace only. */
export type Visibility = 'public' | 'private';

/** The fields of a record that a caller may change; ids, owner and times are the store's. */
export type Changes<T> = Partial<Omit<T, 'id' | 'workspaceId' | 'createdAt' | 'updatedAt' | 'embeddingModel' | 'embeddingDimensions'>>;

/** Common reads of a workspace-owned resource. */
export interface ScopedReads<T> {
  /** The record if it exists in this workspace. */
  find(workspaceId: string, id: string): Promise<T | undefined>;
  /**
   * The workspace that owns `id`, whichever it is; tells "another workspace's" from "none". Workspace-free
   * on purpose: it answers only with the owner's id, for the domain to refuse (403) or not find (404).
   */
  ownerOf(id: string): Promise<string | undefined>;
  /** Newest first. */
  list(workspaceId: string): Promise<T[]>;
}
