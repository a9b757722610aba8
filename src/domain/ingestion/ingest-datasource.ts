import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { datasourceErrorEvent, datasourceSynchedEvent } from '../../events/datasource-events.js';
import type { Embedder } from '../../llm/embeddings/embedder.js';
import { BlockedUrlError, type OutboundPolicy } from '../../net/address-policy.js';
import type { ChunkingOptions } from '../../rag/ingest/chunk-document.js';
import { UnreadableDocumentError, type DocumentKind } from '../../rag/ingest/document.js';
import { downloadWebPage } from '../../rag/ingest/download-web-page.js';
import { fileHash, textHash } from '../../rag/ingest/content-hash.js';
import { MIME_TYPES } from '../../rag/ingest/mime-types.js';
import type { ParseLimits } from '../../rag/ingest/parse/parse-limits.js';
import { sniffDocumentKind } from '../../rag/ingest/parse/sniff-kind.js';
import type { PreparePool } from '../../rag/ingest/prepare-pool.js';
import { vectorLayout, vectorWindows, type VectorLayout } from '../../rag/ingest/vector-windows.js';
import type { DatasourceProgress, DatasourceRecord, JobRecord, NewChunk, Store } from '../../store/store.js';
import { readIngestJob, type IngestTarget } from './ingest-job.js';
import { PermanentJobError, SupersededError } from '../../jobs/job-errors.js';
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { RunningIngests } from './running-ingests.js';
import { ingestedChunks } from '../../observability/instruments.js';
import { firstModelWins } from './embedding-model-rule.js';
import { checkedConfig, indexedPageOf, type IndexedPage } from './page-check.js';
import type { SiteSync } from './site-sync.js';

/** A fetched page: new content to index, or the same as the index was made from. */
type FetchedPage = { unchanged: false; source: DatasourceRecord; found: IndexedPage } | { unchanged: true; reason: string; found?: IndexedPage };

export interface IngestOptions {
  chunking: ChunkingOptions;
  /** What one document may cost to parse; over it, the job fails at once with the reason. */
  parseLimits: ParseLimits;
  tempDir: string;
  maxDownloadBytes: number;
  /** Where web pages may be fetched from (PARLEY_OUTBOUND_ALLOW). */
  outbound: OutboundPolicy;
  quotaChars: number | null;
  /** Texts per embedding call; progress is reported between calls. */
  embedBatch: number;
  /** Crawls the sites (web_site datasources) and keeps their pages. */
  sites: SiteSync;
}

/**
 * Ingests one generation of a datasource: fetch (web pages), parse and chunk (worker threads), embed,
 * then replace the index in one transaction. A deleted or re-synced datasource stops the job where it is
 * (see {@link RunningIngests}), and every progress report checks again: nothing is written for it.
 */
export class IngestDatasourceHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly embedder: Embedder,
    private readonly preparePool: PreparePool,
    private readonly running: RunningIngests,
    private readonly options: IngestOptions,
  ) {}

  async run(job: JobRecord, context: JobContext): Promise<void> {
    const target = readIngestJob(job);
    const watch = this.running.watch(target);
    try {
      await this.ingest(target, AbortSignal.any([context.signal, watch.signal]));
    } catch (error) {
      // Overtaken, whether the abort broke the work (a terminated parse) or the change itself did (a deleted
      // upload gone from under the parser, in another process before the poll saw it): not a failure.
      if (!watch.signal.aborted) await watch.check();
      if (watch.signal.aborted) throw watch.signal.reason as SupersededError;
      throw error;
    } finally {
      watch.end();
    }
  }

  private async ingest(target: IngestTarget, signal: AbortSignal): Promise<void> {
    const { workspaceId, datasourceId, generation } = target;
    const datasource = await this.current(target);
    const report = async (progress: DatasourceProgress) => {
      if (!(await this.store.datasources.report(workspaceId, datasourceId, generation, progress))) {
        throw new SupersededError(`datasource ${datasourceId} generation ${generation} was replaced`);
      }
    };
    await report({ status: 'running', progress: 0.02, error: null });
    if (datasource.type === 'web_site') return this.options.sites.sync(datasource, report, signal);

    // A re-check of a page with an index compares what it fetches with what that index was made from.
    const indexed = target.recheck === true && datasource.nbChunks > 0 ? indexedPageOf(datasource.config) : undefined;
    let source = datasource;
    let found: IndexedPage | undefined;
    if (datasource.type === 'web_page' && target.prefetched !== undefined) {
      // Its site's crawl fetched it and stored it as the datasource's file.
      found = target.prefetched;
    } else if (datasource.type === 'web_page') {
      const page = await this.fetchPage(datasource, indexed, report, signal);
      if (page.unchanged) return this.keepIndex(report, page.reason, page.found);
      ({ source, found } = page);
    }
    const kind = source.config.kind as DocumentKind;
    const prepared = await this.withFile(source, (filePath) =>
      this.preparePool.prepare({ filePath, kind, chunking: this.options.chunking, limits: this.options.parseLimits }, signal),
    );
    if (!prepared.ok) throw new PermanentJobError(prepared.unreadable);
    if (prepared.chunks.length === 0) throw new PermanentJobError('The document contains no text to index');
    if (found !== undefined) {
      found = { ...found, textHash: textHash(prepared.chunks.map((chunk) => chunk.text)) };
      if (indexed?.textHash === found.textHash) return this.keepIndex(report, 'The extracted text is the same', found);
    }
    await report({ progress: 0.2 });

    if (await this.overQuota(datasource, prepared.textSize)) {
      await report({
        status: 'usage_limit_reached',
        progress: 0,
        error: `The workspace's stored-content quota (${this.options.quotaChars} characters) would be exceeded`,
      });
      return;
    }

    const layout = await this.layoutOf(datasource);
    const windows = prepared.chunks.map((chunk) => vectorWindows(chunk.text, layout));
    const texts = windows.flat();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.options.embedBatch) {
      vectors.push(...(await this.embedder.embedDocuments(texts.slice(start, start + this.options.embedBatch), signal)));
      await report({ progress: 0.2 + 0.75 * (vectors.length / texts.length) });
    }

    const sourceLabel = typeof source.config.source_url === 'string' ? source.config.source_url : source.name;
    let next = 0;
    const chunks: NewChunk[] = prepared.chunks.map((chunk, index) => ({
      ordinal: chunk.ordinal,
      text: chunk.text,
      source: sourceLabel,
      pageNumber: chunk.pageNumber ?? null,
      tokens: chunk.tokens,
      vectors: vectors.slice(next, (next += windows[index]!.length)),
    }));
    const outcome = await this.store.datasources.writeIndex(workspaceId, datasourceId, generation, {
      chunks,
      textSize: prepared.textSize,
      totalPages: prepared.totalPages,
      embeddingModel: this.embedder.modelId,
      embeddingDimensions: this.embedder.dimensions,
      modelRule: firstModelWins,
      vectorLayout: layout.name,
      event: datasourceSynchedEvent(datasource, chunks.length),
      config: found === undefined ? undefined : checkedConfig('changed', undefined, found),
    });
    if (outcome === 'superseded') throw new SupersededError(`datasource ${datasourceId} was replaced while indexing`);
    if (outcome === 'model-mismatch') {
      throw new Error('The datastore was indexed with another embedding model; it is being re-embedded');
    }
    ingestedChunks.inc(chunks.length);
  }

  /**
   * A re-check of a page that has an index and now fails (gone: 404, 410; unreachable) keeps that index
   * searchable, status synched, with the reason shown; anything else ends in error.
   */
  async failed(job: JobRecord, reason: string): Promise<void> {
    const { workspaceId, datasourceId, generation, recheck } = readIngestJob(job);
    const datasource = await this.store.datasources.find(workspaceId, datasourceId);
    if (datasource === undefined) return;
    const config = typeof datasource.config.source_url === 'string' ? checkedConfig('failed', reason) : undefined;
    if (recheck === true && (await this.hasIndex(datasource))) {
      const error = `The last check failed (${reason}); the content indexed before is kept`;
      await this.store.datasources.report(workspaceId, datasourceId, generation, { status: 'synched', progress: 1, error, config });
      return;
    }
    const event = datasourceErrorEvent(datasource, reason);
    await this.store.datasources.report(workspaceId, datasourceId, generation, { status: 'error', error: reason, config }, event);
  }

  /** Whether the datasource has content indexed: chunks of its own, or for a site, pages. */
  private async hasIndex(datasource: DatasourceRecord): Promise<boolean> {
    if (datasource.type !== 'web_site') return datasource.nbChunks > 0;
    return (await this.store.datasources.listByGroup(datasource.workspaceId, datasource.id)).some((page) => page.id !== datasource.id);
  }

  async retrying(job: JobRecord, reason: string): Promise<void> {
    const { workspaceId, datasourceId, generation } = readIngestJob(job);
    await this.store.datasources.report(workspaceId, datasourceId, generation, {
      status: 'pending',
      error: `Attempt ${job.attempts} of ${job.maxAttempts} failed (${reason}); it will be retried`,
    });
  }

  private async current({ workspaceId, datasourceId, generation }: IngestTarget): Promise<DatasourceRecord> {
    const datasource = await this.store.datasources.find(workspaceId, datasourceId);
    if (datasource === undefined || datasource.generation !== generation) {
      throw new SupersededError(`datasource ${datasourceId} generation ${generation} is gone`);
    }
    return datasource;
  }

  /** Read as the job starts: a change of the setting re-syncs the datastore, superseding this generation. */
  private async layoutOf(datasource: DatasourceRecord): Promise<VectorLayout> {
    const datastore = await this.store.datastores.find(datasource.workspaceId, datasource.datastoreId);
    return vectorLayout(datastore?.vectorWindows ?? true, this.embedder.maxInputTokens, this.options.chunking.maxTokens);
  }

  private withFile<T>(datasource: DatasourceRecord, use: (filePath: string) => Promise<T>): Promise<T> {
    if (datasource.fileKey === null) throw new PermanentJobError('The datasource has no stored content');
    return this.store.blobs.withLocalFile(datasource.fileKey, use);
  }

  /** The index stays as it is: status back to synched, the check recorded (with what the fetch found, if anything). */
  private async keepIndex(report: (progress: DatasourceProgress) => Promise<void>, reason: string, found?: IndexedPage): Promise<void> {
    await report({ status: 'synched', progress: 1, error: null, config: checkedConfig('unchanged', reason, found) });
  }

  /**
   * Downloads the page, conditionally when it has an index (`indexed`): a 304, or the bytes the index was made
   * from, is unchanged, and neither parsed nor stored. New content is kept as the datasource's file, with
   * what it turned out to be.
   */
  private async fetchPage(
    datasource: DatasourceRecord,
    indexed: IndexedPage | undefined,
    report: (progress: DatasourceProgress) => Promise<void>,
    signal: AbortSignal,
  ): Promise<FetchedPage> {
    const url = String(datasource.config.source_url);
    await fs.mkdir(this.options.tempDir, { recursive: true });
    const file = path.join(this.options.tempDir, `page-${randomUUID()}`);
    try {
      const page = await downloadWebPage(url, file, {
        policy: this.options.outbound,
        maxBytes: this.options.maxDownloadBytes,
        timeoutMs: 30_000,
        signal,
        validators: indexed,
      }).catch((error: unknown) => {
        if (error instanceof BlockedUrlError || error instanceof UnreadableDocumentError) {
          throw new PermanentJobError(error.message);
        }
        throw error;
      });
      if (page.notModified) return { unchanged: true, reason: 'The server answered 304 Not Modified' };
      const found: IndexedPage = { ...page.validators, contentHash: await fileHash(file) };
      if (indexed !== undefined && indexed.contentHash === found.contentHash) {
        return { unchanged: true, reason: 'The same bytes as indexed', found: { ...found, textHash: indexed.textHash } };
      }
      const kind = await sniffDocumentKind(file, new URL(page.finalUrl).pathname);
      if (kind === undefined) throw new PermanentJobError(`${url} is not a page or document Parley can read`);
      const { size } = await fs.stat(file);
      await this.store.blobs.put(datasource.id, file);
      const config = { kind, final_url: page.finalUrl };
      const changes = { fileKey: datasource.id, mimeType: MIME_TYPES[kind], sizeBytes: size };
      await report({ ...changes, config, progress: 0.1 });
      return { unchanged: false, source: { ...datasource, ...changes, config: { ...datasource.config, ...config } }, found };
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  private async overQuota(datasource: DatasourceRecord, textSize: number): Promise<boolean> {
    if (this.options.quotaChars === null) return false;
    const stored = await this.store.datasources.storedTextSize(datasource.workspaceId);
    const replaced = datasource.status === 'synched' ? datasource.textSize : 0;
    return stored - replaced + textSize > this.options.quotaChars;
  }
}
