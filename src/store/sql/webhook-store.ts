import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { WebhookEndpointTable } from '../integration-tables.js';
import type { WebhookChanges, WebhookEndpointRecord, WebhookStore } from '../ports/webhook-store.js';
import { OwnedRecords } from './owned-rows.js';

const toRecord = (row: Selectable<WebhookEndpointTable>): WebhookEndpointRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  description: row.description,
  secret: row.secret,
  enabled: row.enabled === 1,
  source: row.source === 'automation' ? 'automation' : 'webhooks',
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class SqlWebhookStore extends OwnedRecords<'webhook_endpoint', WebhookEndpointRecord> implements WebhookStore {
  constructor(db: Kysely<Database>) {
    super(db, 'webhook_endpoint', toRecord);
  }

  async create(endpoint: WebhookEndpointRecord): Promise<void> {
    await this.db
      .insertInto('webhook_endpoint')
      .values({
        id: endpoint.id,
        workspace_id: endpoint.workspaceId,
        url: endpoint.url,
        events: JSON.stringify(endpoint.events),
        description: endpoint.description,
        secret: endpoint.secret,
        enabled: endpoint.enabled ? 1 : 0,
        source: endpoint.source,
        created_at: endpoint.createdAt,
        updated_at: endpoint.updatedAt,
      })
      .execute();
  }

  update(workspaceId: string, id: string, changes: WebhookChanges, at: string): Promise<WebhookEndpointRecord | undefined> {
    return this.updateColumns(workspaceId, id, {
      url: changes.url,
      events: changes.events === undefined ? undefined : JSON.stringify(changes.events),
      description: changes.description,
      enabled: changes.enabled === undefined ? undefined : changes.enabled ? 1 : 0,
      updated_at: at,
    });
  }

  delete(workspaceId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    return this.deleteRecord(workspaceId, id);
  }

  async subscribedTo(workspaceId: string, eventType: string): Promise<WebhookEndpointRecord[]> {
    // A workspace has a handful of endpoints: filtering the JSON list here keeps the SQL the same in both dialects.
    const rows = await this.db
      .selectFrom('webhook_endpoint')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('enabled', '=', 1)
      .orderBy('created_at')
      .execute();
    return rows.map(toRecord).filter((endpoint) => endpoint.events.includes(eventType));
  }
}
