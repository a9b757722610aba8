import fs from 'node:fs/promises';
import path from 'node:path';
import { ingestJob } from './ingestion/ingest-job.js';
import { firstDueAt, nextDueAt, refreshIntervalOf, refreshJob, type RefreshInterval, type RefreshTarget } from './ingestion/refresh-schedule.js';
import { BlockedUrlError, type OutboundPolicy } from '../net/address-policy.js';
import type { DocumentKind } from '../rag/ingest/document.js';
import { MIME_TYPES } from '../rag/ingest/mime-types.js';
import { sniffDocumentKind } from '../rag/ingest/parse/sniff-kind.js';
import { vectorLayout } from '../rag/ingest/vector-windows.js';
import type { ChunkRecord, DatasourceRecord, DatasourceType, NewJob, Store } from '../store/store.js';
import { datasourceName } from './datasource-name.js';
import { ParleyError, invalid } from '../errors.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import type { Signals } from './signals.js';

/** A file the HTTP layer has already streamed to disk. */
export interface UploadedFile {
  path: string;
  fileName: string;
  size: number;
}

interface Common {
  datastoreId: string;
  customId?: string;
}

export interface DatasourceServiceOptions {
  /** Where text bodies are written before they join the blob store. */
  tempDir: string;
  maxAttempts: number;
  /** Where web pages may be fetched from (PARLEY_OUTBOUND_ALLOW). */
  outbound: OutboundPolicy;
  /** Tells in-process workers of queued and overtaken jobs (other processes see them within a poll). */
  signals: Pick<Signals, 'jobEnqueued' | 'datasourceSuperseded'>;
}

/** A readable default name for untitled text: its first words. */
const firstWords = (text: string): string => {
  const words = text.trim().split(/\s+/).slice(0, 8).join(' ');
  return words.length > 60 ? `${words.slice(0, 59)}…` : words;
};

const SUPPORTED = 'PDF, DOCX, PPTX, XLSX, CSV, TXT, Markdown, HTML and JSON';

/** `config` on the schedule `interval`, next due at `dueAt` (none when off). */
function withSchedule(config: Record<string, unknown>, interval: RefreshInterval, dueAt: string | undefined): Record<string, unknown> {
  const { nextRefreshAt: _previous, ...rest } = config;
  return { ...rest, refreshInterval: interval, ...(dueAt === undefined ? {} : { nextRefreshAt: dueAt }) };
}

export class DatasourceService {
  constructor(
    private readonly store: Store,
    private readonly options: DatasourceServiceOptions,
  ) {}

  async createFromFile(workspaceId: string, input: Common & { fileName?: string; upload: UploadedFile }): Promise<DatasourceRecord> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    const uploadedName = datasourceName(input.upload.fileName);
    const kind = await sniffDocumentKind(input.upload.path, uploadedName);
    if (kind === undefined) {
      throw new ParleyError('UNSUPPORTED_MEDIA_TYPE', `${uploadedName} is not a document Parley can read; supported: ${SUPPORTED}`);
    }
    const name = datasourceName(input.fileName, uploadedName);
    return this.create(workspaceId, 'file', name, input, { file_name: name, kind }, kind, input.upload);
  }

  async createFromText(workspaceId: string, input: Common & { name?: string; text: string }): Promise<DatasourceRecord> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    if (input.text.trim() === '') throw invalid('The text is empty', [{ field: 'text', message: 'must not be blank' }]);
    await fs.mkdir(this.options.tempDir, { recursive: true });
    const file = path.join(this.options.tempDir, `text-${newId()}`);
    try {
      await fs.writeFile(file, input.text, 'utf8');
      const kind = (await sniffDocumentKind(file, 'text.md')) ?? 'txt';
      const name = datasourceName(input.name, firstWords(input.text));
      const upload = { path: file, fileName: name, size: Buffer.byteLength(input.text) };
      return await this.create(workspaceId, 'text', name, input, { kind }, kind, upload);
    } finally {
      // Moved into the blob store by now, unless storing it failed.
      await fs.rm(file, { force: true });
    }
  }

  async createFromWebPage(
    workspaceId: string,
    input: Common & { name?: string; url: string; refreshInterval?: RefreshInterval },
  ): Promise<DatasourceRecord> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    this.checkUrl(input.url);
    const name = datasourceName(input.name, input.url);
    const config = { source_url: input.url, ...(input.refreshInterval === undefined ? {} : { refreshInterval: input.refreshInterval }) };
    return this.create(workspaceId, 'web_page', name, input, config, undefined, undefined);
  }

  /**
   * Sets how often a datasource fetched from a URL is re-synced; the next run is a period from now (kept
   * when the interval does not change). Off leaves any run already queued to find nothing to do.
   */
  async setRefreshInterval(workspaceId: string, id: string, interval: RefreshInterval): Promise<DatasourceRecord> {
    const datasource = await this.get(workspaceId, id);
    if (interval !== 'off' && typeof datasource.config.source_url !== 'string') {
      throw invalid('Only datasources fetched from a URL are re-synced on a schedule', [
        { field: 'config.refreshInterval', message: 'must be off for a datasource without a source_url' },
      ]);
    }
    if (interval !== 'off' && datasource.groupId !== null && datasource.groupId !== datasource.id) {
      throw invalid('A page of a site is re-checked when its site is', [
        { field: 'config.refreshInterval', message: 'set it on the site datasource' },
      ]);
    }
    const scheduled = interval === 'off' || typeof datasource.config.nextRefreshAt === 'string';
    if (datasource.config.refreshInterval === interval && scheduled) return datasource;
    const dueAt = interval === 'off' ? undefined : firstDueAt(interval, new Date());
    // Queued first: a crash in between leaves a run that finds itself not due, never a due time with no run.
    if (dueAt !== undefined) await this.store.jobs.enqueueOnce(refreshJob({ workspaceId, datasourceId: id, dueAt }));
    const updated = await this.store.datasources.changeConfig(workspaceId, id, (config) => withSchedule(config, interval, dueAt));
    if (dueAt !== undefined) this.options.signals.jobEnqueued.notify();
    return updated ?? this.get(workspaceId, id);
  }

  /**
   * One due run of a datasource's schedule, once however many workers hold its job: still due (not turned off,
   * not rescheduled), it queues the next run, moves the due time on (compare and set: one caller wins) and
   * re-syncs, unless a sync is already under way.
   */
  async runDueRefresh({ workspaceId, datasourceId, dueAt }: RefreshTarget): Promise<void> {
    const datasource = await this.store.datasources.find(workspaceId, datasourceId);
    if (datasource === undefined) return;
    const interval = refreshIntervalOf(datasource.config);
    if (interval === 'off' || datasource.config.nextRefreshAt !== dueAt) return;
    const next = nextDueAt(interval, dueAt, new Date());
    await this.store.jobs.enqueueOnce(refreshJob({ workspaceId, datasourceId, dueAt: next }));
    const advanced = await this.store.datasources.changeConfig(workspaceId, datasourceId, (config) =>
      config.nextRefreshAt === dueAt && refreshIntervalOf(config) === interval ? { ...config, nextRefreshAt: next } : undefined,
    );
    if (advanced === undefined || advanced.status === 'pending' || advanced.status === 'running') return;
    await this.resync(workspaceId, datasourceId);
  }

  get(workspaceId: string, id: string): Promise<DatasourceRecord> {
    return findInWorkspace(this.store.datasources, 'Datasource', workspaceId, id);
  }

  async listByDatastore(workspaceId: string, datastoreId: string): Promise<DatasourceRecord[]> {
    await this.requireDatastore(workspaceId, datastoreId);
    return this.store.datasources.listByDatastore(workspaceId, datastoreId);
  }

  /** The chunks as indexed, to see what search will find. */
  async listChunks(workspaceId: string, id: string, page: { offset: number; limit: number }): Promise<ChunkRecord[]> {
    await this.get(workspaceId, id);
    return this.store.datasources.listChunks(workspaceId, id, page);
  }

  /** Removes the datasource with its chunks; a job still running for it stops and writes nothing. */
  async delete(workspaceId: string, id: string): Promise<DatasourceRecord> {
    const datasource = await this.get(workspaceId, id);
    await this.store.datasources.delete(workspaceId, id);
    this.options.signals.datasourceSuperseded.notify(id);
    if (datasource.fileKey !== null) await this.store.blobs.delete(datasource.fileKey);
    return datasource;
  }

  /**
   * Processes the datasource again (a web page is fetched anew, conditionally: unchanged, it keeps its index);
   * work in flight for it is discarded.
   */
  async resync(workspaceId: string, id: string): Promise<DatasourceRecord> {
    await this.get(workspaceId, id);
    const updated = await this.store.datasources.requeue(workspaceId, id, (generation) =>
      this.ingestJob(workspaceId, id, generation, { recheck: true }),
    );
    if (updated !== undefined) this.options.signals.datasourceSuperseded.notify(id, updated.generation);
    this.options.signals.jobEnqueued.notify();
    return updated ?? this.get(workspaceId, id);
  }

  /**
   * After the embedding model changed, every datastore made with the old one is indexed again; until
   * a datasource is re-embedded, keyword search still finds it.
   */
  async reembedIfModelChanged(modelId: string): Promise<number> {
    const stale = await this.store.datasources.listEmbeddedWithOtherModel(modelId);
    const datastores = new Map(stale.map((datasource) => [datasource.datastoreId, datasource.workspaceId]));
    for (const [datastoreId, workspaceId] of datastores) {
      await this.store.datastores.resetEmbeddingModel(workspaceId, datastoreId);
    }
    return this.reindex(stale);
  }

  /**
   * Datasources embedded in another vector layout than their datastore's (made before window vectors,
   * or since the setting or the model's input length changed) are embedded again, in the background;
   * each stays searchable with its old vectors until its new ones replace them.
   */
  async reembedIfLayoutChanged(maxInputTokens: number, chunkTokens: number): Promise<number> {
    const windowed = vectorLayout(true, maxInputTokens, chunkTokens).name;
    const whole = vectorLayout(false, maxInputTokens, chunkTokens).name;
    return this.reindex(await this.store.datasources.listWithOtherVectorLayout({ windowed, whole }));
  }

  /** Every datasource of the datastore indexed again, after a change of how it is embedded. */
  async reembedDatastore(workspaceId: string, datastoreId: string): Promise<number> {
    return this.reindex(await this.store.datasources.listByDatastore(workspaceId, datastoreId));
  }

  private async reindex(datasources: readonly DatasourceRecord[]): Promise<number> {
    for (const datasource of datasources) {
      const requeued = await this.store.datasources.requeue(datasource.workspaceId, datasource.id, (generation) =>
        this.ingestJob(datasource.workspaceId, datasource.id, generation),
      );
      if (requeued !== undefined) this.options.signals.datasourceSuperseded.notify(datasource.id, requeued.generation);
    }
    if (datasources.length > 0) this.options.signals.jobEnqueued.notify();
    return datasources.length;
  }

  private async create(
    workspaceId: string,
    type: DatasourceType,
    name: string,
    input: Common,
    config: Record<string, unknown>,
    kind: DocumentKind | undefined,
    upload: UploadedFile | undefined,
  ): Promise<DatasourceRecord> {
    const id = newId();
    const at = now();
    const interval = refreshIntervalOf(config);
    const dueAt = interval === 'off' ? undefined : firstDueAt(interval, new Date(at));
    if (upload !== undefined) await this.store.blobs.put(id, upload.path);
    const datasource: DatasourceRecord = {
      id,
      workspaceId,
      datastoreId: input.datastoreId,
      type,
      name,
      status: 'unsynched',
      customId: input.customId ?? null,
      groupId: null,
      config: dueAt === undefined ? config : { ...config, nextRefreshAt: dueAt },
      fileKey: upload === undefined ? null : id,
      mimeType: kind === undefined ? null : MIME_TYPES[kind],
      sizeBytes: upload?.size ?? null,
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
    try {
      await this.store.datasources.create(datasource, this.ingestJob(workspaceId, id, 1));
    } catch (error) {
      if (upload !== undefined) await this.store.blobs.delete(id);
      throw error;
    }
    // The answer shows the record as created; the job is safely queued, so the stored status moves on.
    await this.store.datasources.markQueued(workspaceId, id);
    if (dueAt !== undefined) await this.store.jobs.enqueueOnce(refreshJob({ workspaceId, datasourceId: id, dueAt }));
    this.options.signals.jobEnqueued.notify();
    return datasource;
  }

  private ingestJob(workspaceId: string, datasourceId: string, generation: number, { recheck = false } = {}): NewJob {
    return ingestJob(newId(), { workspaceId, datasourceId, generation, recheck }, this.options.maxAttempts);
  }

  private requireDatastore(workspaceId: string, datastoreId: string) {
    return findInWorkspace(this.store.datastores, 'Datastore', workspaceId, datastoreId);
  }

  /** Early, literal check for quick feedback; the fetch itself checks every resolved address again. */
  private checkUrl(raw: string): void {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('config.source_url is not a URL', [{ field: 'url', message: 'must be an http(s) URL' }]);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw invalid('Only http and https pages can be added', [{ field: 'url', message: 'must be an http(s) URL' }]);
    }
    try {
      this.options.outbound.destinationOf(url);
    } catch (error) {
      if (!(error instanceof BlockedUrlError)) throw error;
      throw invalid(`Parley does not fetch this page: ${error.message}`, [{ field: 'url', message: error.message }]);
    }
  }
}
