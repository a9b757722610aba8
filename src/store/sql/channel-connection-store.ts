import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { ChannelConnectionTable } from '../integration-tables.js';
import type {
  ChannelConnectionChanges,
  ChannelConnectionRecord,
  ChannelConnectionStore,
  ConnectionActivity,
} from '../ports/channel-connection-store.js';
import { OwnedRecords } from './owned-rows.js';

const toConnection = (row: Selectable<ChannelConnectionTable>): ChannelConnectionRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  agentId: row.agent_id,
  channel: row.channel,
  enabled: row.enabled === 1,
  settings: JSON.parse(row.settings) as Record<string, unknown>,
  sealedSecrets: row.sealed_secrets,
  secretHints: JSON.parse(row.secret_hints) as Record<string, string>,
  cursor: row.cursor,
  lastInboundAt: row.last_inbound_at,
  lastOutboundAt: row.last_outbound_at,
  lastError: row.last_error,
  lastErrorAt: row.last_error_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class SqlChannelConnectionStore extends OwnedRecords<'channel_connection', ChannelConnectionRecord> implements ChannelConnectionStore {
  constructor(db: Kysely<Database>) {
    super(db, 'channel_connection', toConnection);
  }

  async create(connection: ChannelConnectionRecord): Promise<boolean> {
    const inserted = await this.db
      .insertInto('channel_connection')
      .values({
        id: connection.id,
        workspace_id: connection.workspaceId,
        agent_id: connection.agentId,
        channel: connection.channel,
        enabled: connection.enabled ? 1 : 0,
        settings: JSON.stringify(connection.settings),
        sealed_secrets: connection.sealedSecrets,
        secret_hints: JSON.stringify(connection.secretHints),
        cursor: connection.cursor,
        last_inbound_at: connection.lastInboundAt,
        last_outbound_at: connection.lastOutboundAt,
        last_error: connection.lastError,
        last_error_at: connection.lastErrorAt,
        created_at: connection.createdAt,
        updated_at: connection.updatedAt,
      })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'agent_id', 'channel']).doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  update(workspaceId: string, id: string, changes: ChannelConnectionChanges, at: string): Promise<ChannelConnectionRecord | undefined> {
    return this.updateColumns(workspaceId, id, {
      enabled: changes.enabled === undefined ? undefined : changes.enabled ? 1 : 0,
      settings: changes.settings === undefined ? undefined : JSON.stringify(changes.settings),
      sealed_secrets: changes.sealedSecrets,
      secret_hints: changes.secretHints === undefined ? undefined : JSON.stringify(changes.secretHints),
      updated_at: at,
    });
  }

  delete(workspaceId: string, id: string): Promise<ChannelConnectionRecord | undefined> {
    return this.deleteRecord(workspaceId, id);
  }

  async forAgent(workspaceId: string, agentId: string): Promise<ChannelConnectionRecord[]> {
    const rows = await this.db
      .selectFrom('channel_connection')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('agent_id', '=', agentId)
      .orderBy('created_at')
      .execute();
    return rows.map(toConnection);
  }

  async ofAgentChannel(workspaceId: string, agentId: string, channel: string): Promise<ChannelConnectionRecord | undefined> {
    const row = await this.db
      .selectFrom('channel_connection')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('agent_id', '=', agentId)
      .where('channel', '=', channel)
      .executeTakeFirst();
    return row && toConnection(row);
  }

  async findAnywhere(id: string): Promise<ChannelConnectionRecord | undefined> {
    const row = await this.db.selectFrom('channel_connection').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toConnection(row);
  }

  async listEnabled(channels: readonly string[]): Promise<ChannelConnectionRecord[]> {
    if (channels.length === 0) return [];
    const rows = await this.db
      .selectFrom('channel_connection')
      .selectAll()
      .where('enabled', '=', 1)
      .where('channel', 'in', channels)
      .orderBy('created_at')
      .execute();
    return rows.map(toConnection);
  }

  async saveCursor(workspaceId: string, id: string, cursor: string | null): Promise<void> {
    await this.db.updateTable('channel_connection').set({ cursor }).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  }

  async record(workspaceId: string, id: string, activity: ConnectionActivity): Promise<void> {
    const columns =
      'inboundAt' in activity
        ? { last_inbound_at: activity.inboundAt }
        : 'outboundAt' in activity
          ? { last_outbound_at: activity.outboundAt }
          : { last_error: activity.error, last_error_at: activity.error === null ? null : activity.at };
    await this.db.updateTable('channel_connection').set(columns).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  }
}
