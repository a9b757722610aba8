/** Workspaces: the tenants every other record belongs to. */

export interface WorkspaceRecord {
  id: string;
  name: string;
  createdAt: string;
}

/**
 * The workspaces themselves. `create`, `findByName` and `list` are workspace-free by nature: they are
 * how a workspace is made or found (bootstrap, the CLI); the settings are read and written by its id.
 */
export interface WorkspaceStore {
  create(workspace: WorkspaceRecord): Promise<void>;
  /** The saved settings object (empty when none were saved); the domain fills in the defaults. */
  settings(workspaceId: string): Promise<Record<string, unknown>>;
  saveSettings(workspaceId: string, settings: Record<string, unknown>): Promise<void>;
  findByName(name: string): Promise<WorkspaceRecord | undefined>;
  find(id: string): Promise<WorkspaceRecord | undefined>;
  rename(id: string, name: string): Promise<void>;
  list(): Promise<WorkspaceRecord[]>;
}
