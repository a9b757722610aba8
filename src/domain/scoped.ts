import type { ScopedReads } from '../store/store.js';
import { forbidden, notFound } from './errors.js';

/**
 * Loads a workspace-owned resource or says precisely why not: 403 when it is another workspace's,
 * 404 when it does not exist anywhere.
 */
export async function findInWorkspace<T>(
  reads: ScopedReads<T>,
  what: string,
  workspaceId: string,
  id: string,
): Promise<T> {
  const found = await reads.find(workspaceId, id);
  if (found !== undefined) return found;
  throw (await reads.ownerOf(id)) === undefined ? notFound(what, id) : forbidden(what, id);
}
