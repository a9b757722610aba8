import type { CorpusDocument } from './dataset.js';
import type { Datasource, ParleyClient } from './parley-client.js';

/** The API's limit on a datasource name. */
const MAX_NAME_LENGTH = 500;
const POLL_MS = 1000;
const LOG_EVERY_MS = 10_000;
/** Give up when no datasource changes status for this long. */
const STALL_MS = 10 * 60 * 1000;

export interface IngestionResult {
  /** Documents sent; those with no text at all are skipped. */
  sent: number;
  skipped: string[];
  ms: number;
}

/** The text datasource a corpus document becomes: the title as name and as first paragraph. */
export function datasourceOf(document: CorpusDocument): { name: string; text: string } | undefined {
  const text = document.title === '' ? document.text : `${document.title}\n\n${document.text}`;
  if (text.trim() === '') return undefined;
  const name = (document.title || document.id).slice(0, MAX_NAME_LENGTH);
  return { name, text };
}

/**
 * Adds every document as a `text` datasource through the API, then waits until all are synched.
 * Throws, naming them, when any ends in error or over quota.
 */
export async function ingestCorpus(
  client: ParleyClient,
  datastoreId: string,
  documents: readonly CorpusDocument[],
  log: (line: string) => void,
): Promise<IngestionResult> {
  const started = performance.now();
  const skipped: string[] = [];
  for (const document of documents) {
    const datasource = datasourceOf(document);
    if (datasource === undefined) skipped.push(document.id);
    else await client.addText({ datastoreId, ...datasource, customId: document.id });
  }
  const sent = documents.length - skipped.length;
  log(`sent ${sent} documents${skipped.length > 0 ? ` (${skipped.length} without text skipped)` : ''}; waiting for ingestion`);
  await waitUntilSynched(client, datastoreId, sent, log);
  return { sent, skipped, ms: performance.now() - started };
}

/** Polls the datastore's datasources until `expected` are synched. */
export async function waitUntilSynched(
  client: ParleyClient,
  datastoreId: string,
  expected: number,
  log: (line: string) => void,
): Promise<Datasource[]> {
  let lastSummary = '';
  let lastChange = performance.now();
  let lastLog = 0;
  for (;;) {
    const datasources = await client.listDatasources(datastoreId);
    const failed = datasources.filter((datasource) => datasource.status === 'error' || datasource.status === 'usage_limit_reached');
    if (failed.length > 0) {
      const list = failed.slice(0, 10).map((datasource) => `${datasource.custom_id ?? datasource.id} (${datasource.status}: ${datasource.error})`);
      throw new Error(`${failed.length} datasources failed to ingest: ${list.join('; ')}`);
    }
    const synched = datasources.filter((datasource) => datasource.status === 'synched').length;
    if (synched >= expected) return datasources;
    const summary = `${synched}/${expected} synched`;
    if (summary !== lastSummary) {
      lastSummary = summary;
      lastChange = performance.now();
      if (lastChange - lastLog >= LOG_EVERY_MS) {
        log(summary);
        lastLog = lastChange;
      }
    } else if (performance.now() - lastChange > STALL_MS) {
      throw new Error(`ingestion stalled at ${summary} for ${STALL_MS / 60000} minutes`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
