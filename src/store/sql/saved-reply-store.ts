import type { Kysely, Selectable } from 'kysely';
import type { Database, SavedReplyTable } from '../schema.js';
import type { SavedReplyChanges, SavedReplyRecord, SavedReplyStore } from '../ports/saved-reply-store.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<SavedReplyTable>): SavedReplyRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  shortcut: row.shortcut,
  title: row.title,
  text: row.text,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class SqlSavedReplyStore extends OwnedRecords<'saved_reply', SavedReplyRecord> implements SavedReplyStore {
  constructor(db: Kysely<Database>) {
    super(db, 'saved_reply', toRecord);
  }

  /** By shortcut: the order a member picks them in. */
  override async list(workspaceId: string): Promise<SavedReplyRecord[]> {
    const rows = await this.db.selectFrom('saved_reply').selectAll().where('workspace_id', '=', workspaceId).orderBy('shortcut').execute();
    return rows.map(toRecord);
  }

  async create(reply: SavedReplyRecord): Promise<void> {
    await this.db
      .insertInto('saved_reply')
      .values({
        id: reply.id,
        workspace_id: reply.workspaceId,
        shortcut: reply.shortcut,
        title: reply.title,
        text: reply.text,
        created_at: reply.createdAt,
        updated_at: reply.updatedAt,
      })
      .execute();
  }

  async findByShortcut(workspaceId: string, shortcut: string): Promise<SavedReplyRecord | undefined> {
    const row = await this.db
      .selectFrom('saved_reply')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('shortcut', '=', shortcut)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  update(workspaceId: string, id: string, changes: SavedReplyChanges, at: string): Promise<SavedReplyRecord | undefined> {
    return this.updateColumns(workspaceId, id, { shortcut: changes.shortcut, title: changes.title, text: changes.text, updated_at: at });
  }

  delete(workspaceId: string, id: string): Promise<SavedReplyRecord | undefined> {
    return this.deleteRecord(workspaceId, id);
  }
}
