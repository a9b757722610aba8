import fs from 'node:fs/promises';
import path from 'node:path';
import type { DatasourceBody } from '../../support/bodies.js';
import type { TestParley } from '../../support/parley.js';
import { until } from '../../support/until.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/docs');

/** Calls the API with a workspace key and fails loudly on anything but 2xx. */
export async function apiCall<T = { id: string }>(parley: TestParley, key: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await parley.call<T>(method, url, { key, body });
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Uploads a file (the fixture's bytes, or given ones) as a datasource, as the dashboard does. */
export async function uploadFile(
  parley: TestParley,
  key: string,
  datastoreId: string,
  fileName: string,
  bytes?: Uint8Array,
): Promise<DatasourceBody> {
  const form = new FormData();
  form.append('type', 'file');
  form.append('datastoreId', datastoreId);
  form.append('fileName', fileName);
  form.append('file', new Blob([new Uint8Array(bytes ?? (await fs.readFile(path.join(FIXTURES, fileName))))]), fileName);
  const response = await fetch(`${parley.url}/datasources`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
  if (!response.ok) throw new Error(`upload ${fileName}: ${response.status} ${await response.text()}`);
  return (await response.json()) as DatasourceBody;
}

/** Waits until no datasource of the datastore is queued or running. */
export function settled(parley: TestParley, key: string, datastoreId: string): Promise<DatasourceBody[]> {
  return until(
    () => apiCall<DatasourceBody[]>(parley, key, 'GET', `/datastores/${datastoreId}/datasources`),
    (list) => list.every((datasource) => !['unsynched', 'pending', 'running'].includes(datasource.status)),
    90_000,
  );
}
