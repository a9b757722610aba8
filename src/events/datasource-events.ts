import type { DatasourceRecord, NewOutboxEvent } from '../store/store.js';
import type { DatasourceEventPayload } from '../contract/events.js';
import { newEvent } from './event-types.js';

const about = (datasource: DatasourceRecord): DatasourceEventPayload => ({
  datasourceId: datasource.id,
  datastoreId: datasource.datastoreId,
  name: datasource.name,
  type: datasource.type,
  customId: datasource.customId,
});

export const datasourceSynchedEvent = (datasource: DatasourceRecord, chunks: number): NewOutboxEvent =>
  newEvent(datasource.workspaceId, 'datasource.synched', { ...about(datasource), chunks });

export const datasourceErrorEvent = (datasource: DatasourceRecord, error: string): NewOutboxEvent =>
  newEvent(datasource.workspaceId, 'datasource.error', { ...about(datasource), error });
