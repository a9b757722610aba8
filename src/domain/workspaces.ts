import type { Store, WorkspaceRecord } from '../store/store.js';
import { invalid, notFound } from '../errors.js';
import { newId, now } from './ids.js';
import type { IssuedKey, KeyService } from './keys.js';

export const DEFAULT_WORKSPACE_NAME = 'Default workspace';

export class WorkspaceService {
  constructor(
    private readonly store: Store,
    private readonly keys: KeyService,
  ) {}

  async findOrCreate(name: string): Promise<{ workspace: WorkspaceRecord; created: boolean }> {
    const existing = await this.store.workspaces.findByName(name);
    if (existing !== undefined) return { workspace: existing, created: false };
    const workspace: WorkspaceRecord = { id: newId(), name, createdAt: now() };
    await this.store.workspaces.create(workspace);
    return { workspace, created: true };
  }

  async get(id: string): Promise<WorkspaceRecord> {
    const workspace = await this.store.workspaces.find(id);
    if (workspace === undefined) throw notFound('Workspace', id);
    return workspace;
  }

  async rename(id: string, name: string): Promise<WorkspaceRecord> {
    const trimmed = name.trim();
    if (trimmed === '') throw invalid('A workspace needs a name', [{ field: 'name', message: 'must not be blank' }]);
    await this.store.workspaces.rename(id, trimmed);
    return this.get(id);
  }

  /**
   * On an empty store, creates the default workspace and its first key so a fresh install is usable at
   * once; returns that key, or undefined when the store already had a workspace.
   */
  async bootstrap(): Promise<IssuedKey | undefined> {
    if ((await this.store.workspaces.list()).length > 0) return undefined;
    const { workspace } = await this.findOrCreate(DEFAULT_WORKSPACE_NAME);
    return this.keys.issue(workspace.id, 'First key');
  }
}
