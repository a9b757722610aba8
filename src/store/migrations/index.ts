import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { StoreCapabilities } from '../ports/store-capabilities.js';
import { dialectTypes, type DialectTypes } from './dialect-types.js';
import * as foundation from './001-foundation.js';
import * as ingestion from './002-ingestion.js';
import * as conversations from './003-conversations.js';
import * as events from './004-events.js';
import * as publicAgents from './005-public-agents.js';
import * as people from './006-people.js';
import * as inbox from './007-inbox.js';
import * as widget from './008-widget.js';
import * as requestIds from './009-request-ids.js';
import * as vectorWindows from './010-vector-windows.js';
import * as accessControl from './011-access-control.js';
import * as interruptedAnswers from './012-interrupted-answers.js';
import * as handoff from './013-handoff.js';
import * as statusHistory from './014-status-history.js';
import * as modelProviders from './015-model-providers.js';
import * as messageNotices from './016-message-notices.js';
import * as channelMessages from './017-channel-messages.js';
import * as channelConnections from './019-channel-connections.js';
import * as inboxBasics from './018-inbox-basics.js';
import * as automationHooks from './020-automation-hooks.js';
import * as duplicateKeys from './022-duplicate-keys.js';
import * as sitePages from './023-site-pages.js';

interface VersionedMigration {
  up(db: Kysely<unknown>, types: DialectTypes): Promise<void>;
}

/** Applied in name order; a released migration is never edited, only followed by a new one. */
const MIGRATIONS: Readonly<Record<string, VersionedMigration>> = {
  '001-foundation': foundation,
  '002-ingestion': ingestion,
  '003-conversations': conversations,
  '004-events': events,
  '005-public-agents': publicAgents,
  '006-people': people,
  '007-inbox': inbox,
  '008-widget': widget,
  '009-request-ids': requestIds,
  '010-vector-windows': vectorWindows,
  '011-access-control': accessControl,
  '012-interrupted-answers': interruptedAnswers,
  '013-handoff': handoff,
  '014-status-history': statusHistory,
  '015-model-providers': modelProviders,
  '016-message-notices': messageNotices,
  '017-channel-messages': channelMessages,
  '019-channel-connections': channelConnections,
  '018-inbox-basics': inboxBasics,
  '020-automation-hooks': automationHooks,
  '022-duplicate-keys': duplicateKeys,
  '023-site-pages': sitePages,
};

/** Every migration this build knows, oldest first: a store migrated past the last one was made by a newer Parley. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

/** Hands Kysely's migrator the migrations with the column types of one store's capabilities bound in. */
export class ParleyMigrationProvider implements MigrationProvider {
  readonly #types: DialectTypes;

  constructor(capabilities: StoreCapabilities) {
    this.#types = dialectTypes(capabilities);
  }

  async getMigrations(): Promise<Record<string, Migration>> {
    const types = this.#types;
    return Object.fromEntries(
      Object.entries(MIGRATIONS).map(([name, migration]) => [name, { up: (db: Kysely<unknown>) => migration.up(db, types) }]),
    );
  }
}
