import { Migrator, sql } from 'kysely';
import { ParleyMigrationProvider } from '../migrations/index.js';
import type { BlobStore } from '../ports/blob-store.js';
import type { ChunkSearch } from '../ports/chunk-search.js';
import type { Store } from '../store.js';
import { SqlDatasourceStore } from './datasource-store.js';
import { SqlJobStore } from './job-store.js';
import { SqlAgentStore } from './agent-store.js';
import { SqlApiKeyStore } from './api-key-store.js';
import { SqlDatastoreStore } from './datastore-store.js';
import type { SqlConnection } from './sql-dialect.js';
import { SqlWorkspaceStore } from './workspace-store.js';
import { SqlConversationStore } from './conversation-store.js';
import { SqlMessageStore } from './message-store.js';
import { SqlOutboxStore } from './outbox-store.js';
import { SqlParticipantStore } from './participant-store.js';
import { SqlMemberStore } from './member-store.js';
import { SqlWebhookStore } from './webhook-store.js';
import { SqlInstanceSecretStore } from './instance-secret-store.js';
import { SqlOneTimeLinkStore, SqlSessionStore, SqlUserStore } from './people-store.js';
import { SqlDeliveryStore } from './delivery-store.js';
import { SqlAnalyticsStore } from './analytics-store.js';
import { SqlModelProviderStore } from './model-provider-store.js';
import { SqlChannelConnectionStore } from './channel-connection-store.js';
import { SqlSavedReplyStore } from './saved-reply-store.js';
import { SqlLabelStore } from './label-store.js';

/** Kysely's record of the migrations applied; always there once the store is open. */
const MIGRATION_TABLE = 'parley_migration';

/** The dialect-specific parts: where files live and how chunks are searched. */
export interface DialectParts {
  blobs: BlobStore;
  search: ChunkSearch & { close?(): Promise<void> };
}

/** The store over any SQL dialect Kysely speaks; dialect folders only open the connection. */
export function createSqlStore(connection: SqlConnection, { blobs, search }: DialectParts): Store {
  const { db } = connection;
  return {
    capabilities: connection.capabilities,
    workspaces: new SqlWorkspaceStore(db),
    apiKeys: new SqlApiKeyStore(connection),
    agents: new SqlAgentStore(db),
    datastores: new SqlDatastoreStore(db),
    datasources: new SqlDatasourceStore(connection),
    jobs: new SqlJobStore(connection),
    blobs,
    search,
    conversations: new SqlConversationStore(connection),
    messages: new SqlMessageStore(db),
    analytics: new SqlAnalyticsStore(connection),
    participants: new SqlParticipantStore(db),
    outbox: new SqlOutboxStore(db, connection.listen),
    members: new SqlMemberStore(connection),
    users: new SqlUserStore(connection),
    sessions: new SqlSessionStore(db),
    links: new SqlOneTimeLinkStore(db),
    webhooks: new SqlWebhookStore(db),
    savedReplies: new SqlSavedReplyStore(db),
    labels: new SqlLabelStore(db),
    deliveries: new SqlDeliveryStore(db),
    modelProviders: new SqlModelProviderStore(db),
    channelConnections: new SqlChannelConnectionStore(db),
    secrets: new SqlInstanceSecretStore(db),
    async migrate() {
      const migrator = new Migrator({
        db,
        provider: new ParleyMigrationProvider(connection.capabilities),
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: 'parley_migration_lock',
      });
      const { error, results = [] } = await migrator.migrateToLatest();
      if (error !== undefined) throw error;
      return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
    },
    async ping() {
      // A read of a table rather than `select 1`, which SQLite answers without opening its file.
      await sql`select 1 from ${sql.table(MIGRATION_TABLE)} limit 1`.execute(db);
    },
    async close() {
      await search.close?.();
      // Ends the SQLite handle or the PostgreSQL pool.
      await db.destroy();
    },
  };
}
