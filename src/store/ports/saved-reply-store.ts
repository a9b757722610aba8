/** Saved replies: a workspace's canned answers, which members insert in a reply by shortcut. */
import type { ScopedReads } from './owned-records.js';

export interface SavedReplyRecord {
  id: string;
  workspaceId: string;
  /** Unique per workspace: what a member types after `/`. */
  shortcut: string;
  title: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export type SavedReplyChanges = Partial<Pick<SavedReplyRecord, 'shortcut' | 'title' | 'text'>>;

/** A workspace's saved replies; `list` is by shortcut (the order a member picks them in). */
export interface SavedReplyStore extends ScopedReads<SavedReplyRecord> {
  create(reply: SavedReplyRecord): Promise<void>;
  /** The workspace's saved reply with this shortcut, if any. */
  findByShortcut(workspaceId: string, shortcut: string): Promise<SavedReplyRecord | undefined>;
  update(workspaceId: string, id: string, changes: SavedReplyChanges, at: string): Promise<SavedReplyRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<SavedReplyRecord | undefined>;
}
