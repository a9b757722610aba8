import { invalid } from '../../errors.js';
import type { LabelRecord, Store } from '../../store/store.js';
import { now } from '../ids.js';
import { findInWorkspace } from '../scoped.js';

export interface BulkLabels {
  conversationIds: readonly string[];
  add?: readonly string[];
  remove?: readonly string[];
}

/** Labels on conversations: put on and taken off one conversation or many; the list filters by them. */
export class ConversationLabels {
  constructor(private readonly store: Store) {}

  /** Puts the labels on the conversation; its labels afterwards. */
  async add(workspaceId: string, id: string, labelIds: readonly string[]): Promise<LabelRecord[]> {
    await findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
    await this.checkLabels(workspaceId, labelIds);
    await this.store.labels.attach(workspaceId, [id], labelIds, now());
    return this.of(workspaceId, id);
  }

  /** Takes the label off the conversation (nothing when it was not on); its labels afterwards. */
  async remove(workspaceId: string, id: string, labelId: string): Promise<LabelRecord[]> {
    await findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
    await findInWorkspace(this.store.labels, 'Label', workspaceId, labelId);
    await this.store.labels.detach(workspaceId, [id], [labelId]);
    return this.of(workspaceId, id);
  }

  /** Puts `add` on and takes `remove` off every conversation; each must be the workspace's. */
  async bulk(workspaceId: string, request: BulkLabels): Promise<{ added: number; removed: number }> {
    const add = request.add ?? [];
    const remove = request.remove ?? [];
    if (add.length === 0 && remove.length === 0) {
      throw invalid('Say which labels to add or remove', [{ field: 'add', message: 'add or remove must name a label' }]);
    }
    for (const id of request.conversationIds) await findInWorkspace(this.store.conversations, 'Conversation', workspaceId, id);
    await this.checkLabels(workspaceId, [...add, ...remove]);
    const at = now();
    const removed = await this.store.labels.detach(workspaceId, request.conversationIds, remove);
    const added = await this.store.labels.attach(workspaceId, request.conversationIds, add, at);
    return { added, removed };
  }

  private async of(workspaceId: string, id: string): Promise<LabelRecord[]> {
    return (await this.store.labels.labelsOf(workspaceId, [id])).get(id) ?? [];
  }

  /** Every id a label of the workspace: 403 for another workspace's, 404 for one that does not exist. */
  private async checkLabels(workspaceId: string, labelIds: readonly string[]): Promise<void> {
    const known = new Set((await this.store.labels.list(workspaceId)).map((label) => label.id));
    for (const id of labelIds) if (!known.has(id)) await findInWorkspace(this.store.labels, 'Label', workspaceId, id);
  }
}
