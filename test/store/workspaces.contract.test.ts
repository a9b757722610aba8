import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { at, createWorkspace, useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the workspaces port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  it('finds a workspace by its name, and nothing by a name no workspace has', async () => {
    const workspace = await createWorkspace(store(), { createdAt: at(5) });
    expect(await store().workspaces.findByName(workspace.name)).toEqual(workspace);
    expect(await store().workspaces.findByName(`${workspace.name} (copy)`)).toBeUndefined();
  });

  it('refuses a second workspace of a name already taken', async () => {
    const workspace = await createWorkspace(store());
    await expect(store().workspaces.create({ id: newId(), name: workspace.name, createdAt: at(1) })).rejects.toThrow();
    expect(await store().workspaces.findByName(workspace.name)).toEqual(workspace);
  });

  it('lists every workspace', async () => {
    const created = [await createWorkspace(store()), await createWorkspace(store())];
    const listed = await store().workspaces.list();
    expect(listed).toEqual(expect.arrayContaining(created));
  });

  it('has empty settings until some are saved, then exactly what was saved last', async () => {
    const workspace = await createWorkspace(store());
    expect(await store().workspaces.settings(workspace.id)).toEqual({});
    await store().workspaces.saveSettings(workspace.id, { rateLimits: { perMinute: 10 }, notifications: { a: ['owner'] } });
    await store().workspaces.saveSettings(workspace.id, { rateLimits: { perMinute: 20 } });
    expect(await store().workspaces.settings(workspace.id)).toEqual({ rateLimits: { perMinute: 20 } });
  });

  it('keeps each workspace’s settings its own', async () => {
    const a = await createWorkspace(store());
    const b = await createWorkspace(store());
    await store().workspaces.saveSettings(a.id, { owner: 'a' });
    await store().workspaces.saveSettings(b.id, { owner: 'b' });
    expect(await store().workspaces.settings(a.id)).toEqual({ owner: 'a' });
    expect(await store().workspaces.settings(newId())).toEqual({});
  });
});
