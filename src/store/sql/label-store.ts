import type { Kysely, Selectable } from 'kysely';
import type { Database, LabelTable } from '../schema.js';
import type { LabelChanges, LabelRecord, LabelStore } from '../ports/label-store.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<LabelTable>): LabelRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  color: row.color,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class SqlLabelStore extends OwnedRecords<'label', LabelRecord> implements LabelStore {
  constructor(db: Kysely<Database>) {
    super(db, 'label', toRecord);
  }

  /** By name. */
  override async list(workspaceId: string): Promise<LabelRecord[]> {
    const rows = await this.db.selectFrom('label').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async create(label: LabelRecord): Promise<void> {
    await this.db
      .insertInto('label')
      .values({
        id: label.id,
        workspace_id: label.workspaceId,
        name: label.name,
        color: label.color,
        created_at: label.createdAt,
        updated_at: label.updatedAt,
      })
      .execute();
  }

  async findByName(workspaceId: string, name: string): Promise<LabelRecord | undefined> {
    const row = await this.db.selectFrom('label').selectAll().where('workspace_id', '=', workspaceId).where('name', '=', name).executeTakeFirst();
    return row && toRecord(row);
  }

  update(workspaceId: string, id: string, changes: LabelChanges, at: string): Promise<LabelRecord | undefined> {
    return this.updateColumns(workspaceId, id, { name: changes.name, color: changes.color, updated_at: at });
  }

  delete(workspaceId: string, id: string): Promise<LabelRecord | undefined> {
    return this.deleteRecord(workspaceId, id);
  }

  async labelsOf(workspaceId: string, conversationIds: readonly string[]): Promise<Map<string, LabelRecord[]>> {
    const labels = new Map<string, LabelRecord[]>();
    if (conversationIds.length === 0) return labels;
    const rows = await this.db
      .selectFrom('conversation_label')
      .innerJoin('label', 'label.id', 'conversation_label.label_id')
      .selectAll('label')
      .select('conversation_label.conversation_id')
      .where('conversation_label.workspace_id', '=', workspaceId)
      .where('label.workspace_id', '=', workspaceId)
      .where('conversation_label.conversation_id', 'in', [...conversationIds])
      .orderBy('label.name')
      .orderBy('label.id')
      .execute();
    for (const { conversation_id: conversationId, ...row } of rows) {
      const list = labels.get(conversationId);
      if (list === undefined) labels.set(conversationId, [toRecord(row)]);
      else list.push(toRecord(row));
    }
    return labels;
  }

  async attach(workspaceId: string, conversationIds: readonly string[], labelIds: readonly string[], at: string): Promise<number> {
    const values = conversationIds.flatMap((conversationId) =>
      labelIds.map((labelId) => ({ workspace_id: workspaceId, conversation_id: conversationId, label_id: labelId, created_at: at })),
    );
    if (values.length === 0) return 0;
    const result = await this.db
      .insertInto('conversation_label')
      .values(values)
      .onConflict((conflict) => conflict.columns(['workspace_id', 'conversation_id', 'label_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  async detach(workspaceId: string, conversationIds: readonly string[], labelIds: readonly string[]): Promise<number> {
    if (conversationIds.length === 0 || labelIds.length === 0) return 0;
    const result = await this.db
      .deleteFrom('conversation_label')
      .where('workspace_id', '=', workspaceId)
      .where('conversation_id', 'in', [...conversationIds])
      .where('label_id', 'in', [...labelIds])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
