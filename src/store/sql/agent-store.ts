import { sql, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type { AgentTable, Database } from '../schema.js';
import type { AgentRecord, AgentStore } from '../ports/agent-store.js';
import type { Changes, Visibility } from '../ports/owned-records.js';

const toRecord = (row: Selectable<AgentTable>, datastoreIds: string[]): AgentRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  description: row.description,
  modelName: row.model_name,
  temperature: row.temperature,
  visibility: row.visibility as Visibility,
  systemPrompt: row.system_prompt,
  userPrompt: row.user_prompt,
  iconUrl: row.icon_url,
  handle: row.handle,
  allowedOrigins: JSON.parse(row.allowed_origins) as string[],
  widget: JSON.parse(row.widget_settings) as Record<string, unknown>,
  keepAnsweringUntilTakenOver: row.keep_answering_until_taken_over === 1,
  datastoreIds,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toColumns = (changes: Changes<AgentRecord>): Updateable<AgentTable> => ({
  name: changes.name,
  description: changes.description,
  model_name: changes.modelName,
  temperature: changes.temperature,
  visibility: changes.visibility,
  system_prompt: changes.systemPrompt,
  user_prompt: changes.userPrompt,
  icon_url: changes.iconUrl,
  handle: changes.handle,
  allowed_origins: changes.allowedOrigins === undefined ? undefined : JSON.stringify(changes.allowedOrigins),
  widget_settings: changes.widget === undefined ? undefined : JSON.stringify(changes.widget),
  keep_answering_until_taken_over: changes.keepAnsweringUntilTakenOver === undefined ? undefined : changes.keepAnsweringUntilTakenOver ? 1 : 0,
});

export class SqlAgentStore implements AgentStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(agent: AgentRecord): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('agent')
        .values({
          id: agent.id,
          workspace_id: agent.workspaceId,
          name: agent.name,
          description: agent.description,
          model_name: agent.modelName,
          temperature: agent.temperature,
          visibility: agent.visibility,
          system_prompt: agent.systemPrompt,
          user_prompt: agent.userPrompt,
          icon_url: agent.iconUrl,
          handle: agent.handle,
          allowed_origins: JSON.stringify(agent.allowedOrigins),
          widget_settings: JSON.stringify(agent.widget),
          keep_answering_until_taken_over: agent.keepAnsweringUntilTakenOver ? 1 : 0,
          created_at: agent.createdAt,
          updated_at: agent.updatedAt,
        })
        .execute();
      await this.replaceLinks(trx, agent.workspaceId, agent.id, agent.datastoreIds);
    });
  }

  async find(workspaceId: string, id: string): Promise<AgentRecord | undefined> {
    return this.findWith(this.db, workspaceId, id);
  }

  async ownerOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('agent').select('workspace_id').where('id', '=', id).executeTakeFirst();
    return row?.workspace_id;
  }

  async list(workspaceId: string): Promise<AgentRecord[]> {
    const rows = await this.db
      .selectFrom('agent')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const links = await this.db
      .selectFrom('agent_datastore')
      .select(['agent_id', 'datastore_id'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('position')
      .execute();
    return rows.map((row) =>
      toRecord(
        row,
        links.filter((link) => link.agent_id === row.id).map((link) => link.datastore_id),
      ),
    );
  }

  async update(workspaceId: string, id: string, changes: Changes<AgentRecord>, at: string): Promise<AgentRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('agent')
        .set({ ...toColumns(changes), updated_at: at })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return undefined;
      if (changes.datastoreIds !== undefined) await this.replaceLinks(trx, workspaceId, id, changes.datastoreIds);
      return this.findWith(trx, workspaceId, id);
    });
  }

  async delete(workspaceId: string, id: string): Promise<AgentRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const agent = await this.findWith(trx, workspaceId, id);
      if (agent === undefined) return undefined;
      await trx.deleteFrom('agent').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
      return agent;
    });
  }

  /**
   * One query for the agent and its datastore links (a row per link, or one with none), written as SQL
   * rather than built: agent reads are hot, and building the query cost more than running it.
   */
  private async findWith(db: Kysely<Database>, workspaceId: string, id: string): Promise<AgentRecord | undefined> {
    const { rows } = await sql<Selectable<AgentTable> & { linked_datastore_id: string | null }>`
      select agent.*, link.datastore_id as linked_datastore_id
      from agent left join agent_datastore link on link.agent_id = agent.id
      where agent.workspace_id = ${workspaceId} and agent.id = ${id}
      order by link.position`.execute(db);
    const [first] = rows;
    if (first === undefined) return undefined;
    const { linked_datastore_id: _link, ...row } = first;
    return toRecord(
      row,
      rows.flatMap((link) => (link.linked_datastore_id === null ? [] : [link.linked_datastore_id])),
    );
  }

  private async replaceLinks(trx: Transaction<Database>, workspaceId: string, agentId: string, datastoreIds: readonly string[]): Promise<void> {
    await trx.deleteFrom('agent_datastore').where('agent_id', '=', agentId).execute();
    if (datastoreIds.length === 0) return;
    await trx
      .insertInto('agent_datastore')
      .values(
        datastoreIds.map((datastoreId, position) => ({
          agent_id: agentId,
          datastore_id: datastoreId,
          workspace_id: workspaceId,
          position,
        })),
      )
      .execute();
  }
}
