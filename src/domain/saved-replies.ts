import { conflict, invalid, notFound } from '../errors.js';
import type { SavedReplyChanges, SavedReplyRecord, Store } from '../store/store.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';

export interface SavedReplyInput {
  shortcut: string;
  title: string;
  text: string;
}

const SHORTCUT = /^[a-z0-9-]{1,40}$/;

/**
 * A workspace's saved replies (canned answers): every member uses them, and every member (owner, admin or
 * member, in person or through a key they made) may add, change and delete them, as in a team's shared
 * snippets: nothing in them reaches a visitor until a member sends a reply.
 */
export class SavedReplyService {
  constructor(private readonly store: Store) {}

  list(workspaceId: string): Promise<SavedReplyRecord[]> {
    return this.store.savedReplies.list(workspaceId);
  }

  get(workspaceId: string, id: string): Promise<SavedReplyRecord> {
    return findInWorkspace(this.store.savedReplies, 'Saved reply', workspaceId, id);
  }

  async create(workspaceId: string, input: SavedReplyInput): Promise<SavedReplyRecord> {
    const clean = { shortcut: input.shortcut, title: input.title.trim(), text: input.text.trim() };
    this.checkShortcut(clean.shortcut);
    await this.checkFree(workspaceId, clean.shortcut);
    const at = now();
    const reply: SavedReplyRecord = { id: newId(), workspaceId, ...clean, createdAt: at, updatedAt: at };
    await this.store.savedReplies.create(reply);
    return reply;
  }

  async update(workspaceId: string, id: string, changes: SavedReplyChanges): Promise<SavedReplyRecord> {
    const current = await this.get(workspaceId, id);
    if (changes.shortcut !== undefined && changes.shortcut !== current.shortcut) {
      this.checkShortcut(changes.shortcut);
      await this.checkFree(workspaceId, changes.shortcut);
    }
    const updated = await this.store.savedReplies.update(
      workspaceId,
      id,
      { shortcut: changes.shortcut, title: changes.title?.trim(), text: changes.text?.trim() },
      now(),
    );
    if (updated === undefined) throw notFound('Saved reply', id);
    return updated;
  }

  async delete(workspaceId: string, id: string): Promise<SavedReplyRecord> {
    await this.get(workspaceId, id);
    const deleted = await this.store.savedReplies.delete(workspaceId, id);
    if (deleted === undefined) throw notFound('Saved reply', id);
    return deleted;
  }

  private checkShortcut(shortcut: string): void {
    if (!SHORTCUT.test(shortcut)) {
      throw invalid('A shortcut is 1 to 40 of a-z, 0-9 and -', [{ field: 'shortcut', message: 'must match ^[a-z0-9-]{1,40}$' }]);
    }
  }

  private async checkFree(workspaceId: string, shortcut: string): Promise<void> {
    if ((await this.store.savedReplies.findByShortcut(workspaceId, shortcut)) !== undefined) {
      throw conflict(`The shortcut /${shortcut} is taken in this workspace`);
    }
  }
}
