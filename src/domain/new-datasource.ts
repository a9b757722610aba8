import type { DatasourceRecord } from '../store/store.js';
import { now } from './ids.js';

/** What makes a datasource; the rest of a new one's record is the same for all: queued, nothing indexed yet. */
export type DatasourceOrigin = Pick<
  DatasourceRecord,
  'id' | 'workspaceId' | 'datastoreId' | 'type' | 'name' | 'customId' | 'groupId' | 'config' | 'fileKey' | 'mimeType' | 'sizeBytes' | 'contentKey'
>;

/** The record of a datasource about to be created, its first generation waiting for its job. */
export function newDatasource(origin: DatasourceOrigin): DatasourceRecord {
  const at = now();
  return {
    ...origin,
    status: 'unsynched',
    error: null,
    progress: 0,
    nbChunks: 0,
    textSize: 0,
    totalPages: null,
    generation: 1,
    lastSynch: null,
    createdAt: at,
    updatedAt: at,
  };
}
