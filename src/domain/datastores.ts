import { DEFAULT_FUSION_WEIGHTS } from '../rag/retrieve/retriever.js';
import type { DatastoreRecord, DatastoreType, Store, Visibility } from '../store/store.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import { unalias } from './vendor-aliases.js';
import { DATASTORE_TYPE_ALIASES, type DatastoreTypeInput } from '../contract/datastores.js';

/** What a client may send to create or change a datastore; every field is optional. */
export interface DatastoreInput {
  name?: string;
  description?: string;
  type?: DatastoreTypeInput;
  visibility?: Visibility;
  vectorWeight?: number;
  keywordWeight?: number;
  vectorWindows?: boolean;
}

export const DATASTORE_DEFAULTS = {
  name: 'Untitled datastore',
  description: '',
  type: 'vector_a',
  visibility: 'private',
  vectorWeight: DEFAULT_FUSION_WEIGHTS.vector,
  keywordWeight: DEFAULT_FUSION_WEIGHTS.keyword,
  vectorWindows: true,
} as const satisfies Partial<DatastoreRecord>;

export class DatastoreService {
  constructor(
    private readonly store: Store,
    /** Re-embeds the datastore's datasources after its `vectorWindows` setting changed. */
    private readonly reembed: (workspaceId: string, datastoreId: string) => Promise<unknown>,
  ) {}

  async create(workspaceId: string, input: DatastoreInput): Promise<DatastoreRecord> {
    const at = now();
    const datastore: DatastoreRecord = {
      ...DATASTORE_DEFAULTS,
      ...specValues(input),
      embeddingModel: null,
      embeddingDimensions: null,
      id: newId(),
      workspaceId,
      createdAt: at,
      updatedAt: at,
    };
    await this.store.datastores.create(datastore);
    return datastore;
  }

  get(workspaceId: string, id: string): Promise<DatastoreRecord> {
    return findInWorkspace(this.store.datastores, 'Datastore', workspaceId, id);
  }

  list(workspaceId: string): Promise<DatastoreRecord[]> {
    return this.store.datastores.list(workspaceId);
  }

  async update(workspaceId: string, id: string, input: DatastoreInput): Promise<DatastoreRecord> {
    const before = await this.get(workspaceId, id);
    const updated = (await this.store.datastores.update(workspaceId, id, specValues(input), now())) ?? (await this.get(workspaceId, id));
    // After the setting is stored: a job that read the old one is superseded by the new generation.
    if (updated.vectorWindows !== before.vectorWindows) await this.reembed(workspaceId, id);
    return updated;
  }

  /** Removes the datastore with its datasources, chunks and vectors; agents keep working without it. */
  async delete(workspaceId: string, id: string): Promise<DatastoreRecord> {
    await this.get(workspaceId, id);
    return (await this.store.datastores.delete(workspaceId, id)) ?? this.get(workspaceId, id);
  }
}

/** `input` with its type as the spec names it. */
function specValues({ type, ...input }: DatastoreInput): Omit<DatastoreInput, 'type'> & { type?: DatastoreType } {
  return type === undefined ? input : { ...input, type: unalias<typeof DATASTORE_TYPE_ALIASES, DatastoreType>(DATASTORE_TYPE_ALIASES, type) };
}
