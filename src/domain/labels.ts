import { conflict, notFound } from '../errors.js';
import type { LabelChanges, LabelRecord, Store } from '../store/store.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';

export interface LabelInput {
  name: string;
  color?: string;
}

/** The colour of a label made without one. */
export const DEFAULT_LABEL_COLOR = '#6b7280';

/**
 * A workspace's labels: every member uses them on conversations, and every member (owner, admin or member,
 * in person or through a key they made) may make, rename, recolour and delete them.
 */
export class LabelService {
  constructor(private readonly store: Store) {}

  list(workspaceId: string): Promise<LabelRecord[]> {
    return this.store.labels.list(workspaceId);
  }

  get(workspaceId: string, id: string): Promise<LabelRecord> {
    return findInWorkspace(this.store.labels, 'Label', workspaceId, id);
  }

  async create(workspaceId: string, input: LabelInput): Promise<LabelRecord> {
    const name = input.name.trim();
    await this.checkFree(workspaceId, name);
    const at = now();
    const label: LabelRecord = {
      id: newId(),
      workspaceId,
      name,
      color: (input.color ?? DEFAULT_LABEL_COLOR).toLowerCase(),
      createdAt: at,
      updatedAt: at,
    };
    await this.store.labels.create(label);
    return label;
  }

  async update(workspaceId: string, id: string, changes: LabelChanges): Promise<LabelRecord> {
    const current = await this.get(workspaceId, id);
    const name = changes.name?.trim();
    if (name !== undefined && name !== current.name) await this.checkFree(workspaceId, name);
    const updated = await this.store.labels.update(workspaceId, id, { name, color: changes.color?.toLowerCase() }, now());
    if (updated === undefined) throw notFound('Label', id);
    return updated;
  }

  /** Deletes the label; it leaves every conversation it was on. */
  async delete(workspaceId: string, id: string): Promise<LabelRecord> {
    await this.get(workspaceId, id);
    const deleted = await this.store.labels.delete(workspaceId, id);
    if (deleted === undefined) throw notFound('Label', id);
    return deleted;
  }

  private async checkFree(workspaceId: string, name: string): Promise<void> {
    if ((await this.store.labels.findByName(workspaceId, name)) !== undefined) throw conflict(`A label named ${name} exists in this workspace`);
  }
}
