/** Labels: a workspace's tags for conversations, and which conversations carry them. */
import type { ScopedReads } from './owned-records.js';

export interface LabelRecord {
  id: string;
  workspaceId: string;
  /** Unique per workspace. */
  name: string;
  /** `#rrggbb`. */
  color: string;
  createdAt: string;
  updatedAt: string;
}

export type LabelChanges = Partial<Pick<LabelRecord, 'name' | 'color'>>;

/** A workspace's labels (`list` by name) and the conversations they are on; a label deleted leaves them all. */
export interface LabelStore extends ScopedReads<LabelRecord> {
  create(label: LabelRecord): Promise<void>;
  /** The workspace's label of this name, if any. */
  findByName(workspaceId: string, name: string): Promise<LabelRecord | undefined>;
  update(workspaceId: string, id: string, changes: LabelChanges, at: string): Promise<LabelRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<LabelRecord | undefined>;
  /** Each conversation's labels, by name, by conversation id; conversations without any are left out. */
  labelsOf(workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, LabelRecord[]>>;
  /**
   * Puts every label on every conversation (those already there stay once). The caller checked that
   * both are the workspace's; the number of labels newly put on.
   */
  attach(workspaceId: string, conversationIds: readonly string[], labelIds: readonly string[], at: string): Promise<number>;
  /** Takes the labels off the conversations; the number taken off. */
  detach(workspaceId: string, conversationIds: readonly string[], labelIds: readonly string[]): Promise<number>;
}
