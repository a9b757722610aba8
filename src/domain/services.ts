import type { Store } from '../store/store.js';
import { AgentService } from './agents.js';
import { DatasourceService, type DatasourceServiceOptions } from './datasources.js';
import { DatastoreService } from './datastores.js';
import { KeyService } from './keys.js';
import { WorkspaceService } from './workspaces.js';

/** Every use case, wired to one store; what the HTTP layer and the CLI call. */
export interface Services {
  readonly keys: KeyService;
  readonly workspaces: WorkspaceService;
  readonly agents: AgentService;
  readonly datastores: DatastoreService;
  readonly datasources: DatasourceService;
}

export function createServices(store: Store, datasourceOptions: DatasourceServiceOptions): Services {
  const keys = new KeyService(store);
  return {
    keys,
    workspaces: new WorkspaceService(store, keys),
    agents: new AgentService(store),
    datastores: new DatastoreService(store),
    datasources: new DatasourceService(store, datasourceOptions),
  };
}
