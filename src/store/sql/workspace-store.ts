import type { Kysely, Selectable } from 'kysely';
import type { Database, WorkspaceTable } from '../schema.js';
import type { WorkspaceRecord, WorkspaceStore } from '../ports/workspace-store.js';

const toRecord = (row: Selectable<WorkspaceTable>): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

export class SqlWorkspaceStore implements WorkspaceStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(workspace: WorkspaceRecord): Promise<void> {
    await this.db.insertInto('workspace').values({ id: workspace.id, name: workspace.name, created_at: workspace.createdAt }).execute();
  }

  async settings(workspaceId: string): Promise<Record<string, unknown>> {
    const row = await this.db.selectFrom('workspace').select('settings').where('id', '=', workspaceId).executeTakeFirst();
    return row === undefined ? {} : (JSON.parse(row.settings) as Record<string, unknown>);
  }

  async saveSettings(workspaceId: string, settings: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('workspace')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', workspaceId)
      .execute();
  }

  async find(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.selectFrom('workspace').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async rename(id: string, name: string): Promise<void> {
    await this.db.updateTable('workspace').set({ name }).where('id', '=', id).execute();
  }

  async findByName(name: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.selectFrom('workspace').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  async list(): Promise<WorkspaceRecord[]> {
    const rows = await this.db.selectFrom('workspace').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }
}
