import fs from 'node:fs/promises';
import path from 'node:path';
import { vi } from 'vitest';
import { INGEST_JOB } from '../../src/domain/ingestion/ingest-job.js';
import type { JobRecord } from '../../src/store/store.js';
import type { ApiResponse, TestParley } from './parley.js';
import type { ChunkBody, DatasourceBody } from './bodies.js';
import type { OnDuplicateChoice } from '../../src/contract/datasources.js';

export { DOCS_DIR as FIXTURES } from './fixtures.js';

export interface UploadOptions {
  key: string;
  datastoreId: string;
  file: string | { name: string; bytes: Uint8Array };
  fileName?: string;
  customId?: string;
  /** Leave out the `type` field, as some older clients do. */
  omitType?: boolean;
  /** What to do when the datastore holds the same bytes already (the server's default: use the existing datasource). */
  onDuplicate?: OnDuplicateChoice;
}

/**
 * POST /datasources as multipart/form-data, as the older widget and SDK send it; `T` is the body the test
 * expects (a DatasourceBody, or an ErrorBody when the upload is to be refused).
 */
export async function uploadFile<T>(parley: Pick<TestParley, 'url'>, options: UploadOptions): Promise<ApiResponse<T>> {
  const { name, bytes } =
    typeof options.file === 'string' ? { name: path.basename(options.file), bytes: await fs.readFile(options.file) } : options.file;
  const form = new FormData();
  if (!options.omitType) form.set('type', 'file');
  form.set('datastoreId', options.datastoreId);
  if (options.fileName !== undefined) form.set('fileName', options.fileName);
  if (options.customId !== undefined) form.set('custom_id', options.customId);
  if (options.onDuplicate !== undefined) form.set('onDuplicate', options.onDuplicate);
  form.set('file', new Blob([bytes]), name);
  const response = await fetch(`${parley.url}/datasources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.key}` },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) as T };
}

const SETTLED = new Set(['synched', 'error', 'usage_limit_reached']);

/** Polls GET /datasources/{id} until it settles (or the given statuses are reached). */
export async function waitForDatasource(
  parley: Pick<TestParley, 'call'>,
  key: string,
  id: string,
  { timeoutMs = 60_000, until = SETTLED }: { timeoutMs?: number; until?: Set<string> } = {},
): Promise<DatasourceBody> {
  return vi.waitFor(
    async () => {
      const { status, body } = await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key });
      // A datasource that cannot be read will not become readable: stop polling at once.
      if (status !== 200) throw Object.assign(new Error(`GET /datasources/${id} answered ${status}`), { body });
      if (!until.has(body.status)) throw new Error(`datasource ${id} still ${body.status} after ${timeoutMs} ms`);
      return body;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

/** Every chunk text of a datasource, through the API. */
export async function chunkTexts(parley: TestParley, key: string, id: string): Promise<string[]> {
  const texts: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const { body } = await parley.call<ChunkBody[]>('GET', `/datasources/${id}/chunks?offset=${offset}&limit=500`, { key });
    texts.push(...body.map((chunk) => chunk.text));
    if (body.length < 500) return texts;
  }
}

/** The ingest jobs of a datasource, every generation, oldest first. */
export async function ingestJobs(parley: Pick<TestParley, 'core'>, datasourceId: string): Promise<JobRecord[]> {
  const jobs = await parley.core.store.jobs.list({ kind: INGEST_JOB });
  return jobs.filter((job) => job.payload.datasourceId === datasourceId);
}
