import fs from 'node:fs/promises';
import { normalisedUrl } from '../../net/normalised-url.js';
import type { OutboundPolicy } from '../../net/address-policy.js';
import { fileHash } from '../../rag/ingest/content-hash.js';
import { MIME_TYPES } from '../../rag/ingest/mime-types.js';
import { sniffDocumentKind } from '../../rag/ingest/parse/sniff-kind.js';
import { crawlSite, type CrawledPage, type KnownPage } from '../../rag/crawl/site-crawl.js';
import type { DatasourceProgress, DatasourceRecord, Store } from '../../store/store.js';
import { urlContentKey } from '../duplicate-keys.js';
import { newDatasource } from '../new-datasource.js';
import { newId, now } from '../ids.js';
import type { Signals } from '../signals.js';
import { ingestJob } from './ingest-job.js';
import { checkedConfig, indexedPageOf, type IndexedPage } from './page-check.js';
import { siteSettingsOf, type SiteProgress, type SiteProblem } from './site-settings.js';

export interface SiteSyncOptions {
  outbound: OutboundPolicy;
  tempDir: string;
  maxDownloadBytes: number;
  maxAttempts: number;
  /** Requests to one site in flight at once (one while its robots.txt asks for a Crawl-delay). */
  concurrency: number;
  /** Requests to one site start at least this far apart. */
  minDelayMs: number;
  signals: Pick<Signals, 'jobEnqueued' | 'datasourceSuperseded'>;
}

/** Problems a site's progress lists at most (the counts go on). */
const MAX_PROBLEMS = 50;

/** A site's progress is written at most this often while it is crawled. */
const REPORT_EVERY_MS = 500;

const lastCheckedAt = (config: Record<string, unknown>): string | undefined => {
  const check = config.lastCheck as { at?: unknown; outcome?: unknown } | undefined;
  return check?.outcome !== 'failed' && typeof check?.at === 'string' ? check.at : undefined;
};

/**
 * Syncs a website datasource (`web_site`) with the site: crawls it (src/rag/crawl/site-crawl.ts) and keeps one
 * `web_page` datasource per page, in the site's group. A new page is added, a changed one is indexed again
 * from what the crawl fetched (never fetched twice), an unchanged one (304, the same bytes, a sitemap `lastmod`
 * not newer than its last check) keeps its index untouched, and a page that left the site (404 or 410, no
 * longer linked or listed, now noindex or a copy of another) is removed. A page that fails keeps its index.
 */
export class SiteSync {
  constructor(
    private readonly store: Store,
    private readonly options: SiteSyncOptions,
  ) {}

  async sync(site: DatasourceRecord, report: (progress: DatasourceProgress) => Promise<void>, signal: AbortSignal): Promise<void> {
    const settings = siteSettingsOf(site.config);
    const pages = new Map<string, DatasourceRecord>();
    for (const page of await this.store.datasources.listByGroup(site.workspaceId, site.id)) {
      const url = page.config.source_url;
      if (page.id !== site.id && typeof url === 'string') pages.set(normalisedUrl(url), page);
    }
    const progress: SiteProgress = {
      startedAt: now(),
      found: 0,
      fetched: 0,
      changed: 0,
      unchanged: 0,
      failed: 0,
      removed: 0,
      skipped: 0,
      capped: 0,
      problems: [],
    };
    let reportedAt = 0;
    const note = async (problem?: SiteProblem) => {
      if (problem !== undefined && progress.problems.length < MAX_PROBLEMS) progress.problems.push(problem);
      if (Date.now() - reportedAt < REPORT_EVERY_MS) return;
      reportedAt = Date.now();
      const done = progress.fetched + progress.unchanged + progress.failed + progress.skipped;
      await report({ progress: Math.min(0.95, 0.05 + 0.9 * (done / Math.max(done + 1, settings.maxPages))), config: { crawl: { ...progress } } });
    };

    const hooks = {
      known: (key: string): KnownPage | undefined => {
        const page = pages.get(key);
        if (page === undefined || page.status !== 'synched' || page.nbChunks === 0) return undefined;
        const { etag, lastModified } = indexedPageOf(page.config);
        return {
          validators: { ...(etag === undefined ? {} : { etag }), ...(lastModified === undefined ? {} : { lastModified }) },
          checkedAt: lastCheckedAt(page.config),
          storedHtml: () => this.storedText(page),
        };
      },
      page: async (crawled: CrawledPage) => {
        const key = normalisedUrl(crawled.url);
        const page = pages.get(key);
        if (page !== undefined) pages.delete(key);
        const problem = await this.apply(site, crawled, page, progress);
        await note(problem);
      },
    };

    const summary = await crawlSite(
      {
        startUrl: settings.startUrl,
        include: settings.include,
        exclude: settings.exclude,
        maxPages: settings.maxPages,
        maxDepth: settings.maxDepth,
        minDelayMs: this.options.minDelayMs,
        concurrency: this.options.concurrency,
        policy: this.options.outbound,
        maxBytes: this.options.maxDownloadBytes,
        timeoutMs: 30_000,
        tempDir: this.options.tempDir,
        signal,
      },
      hooks,
    );
    // What the crawl did not meet has left the site (or its scope, or maxPages).
    for (const [key, page] of pages) {
      if (summary.met.has(key)) continue;
      await this.remove(page);
      progress.removed += 1;
    }
    progress.mode = summary.mode;
    progress.found = summary.found;
    progress.capped = summary.capped;
    progress.finishedAt = now();
    const outcome = progress.changed > 0 || progress.removed > 0 ? 'changed' : 'unchanged';
    await report({
      status: 'synched',
      progress: 1,
      error: null,
      config: { crawl: progress, lastCheck: { at: progress.finishedAt, outcome } },
    });
  }

  /** What one crawled page does to the site's pages; the problem to list, if any. */
  private async apply(site: DatasourceRecord, crawled: CrawledPage, page: DatasourceRecord | undefined, progress: SiteProgress) {
    const problem = (outcome: SiteProblem['outcome'], reason: string): SiteProblem => ({ url: crawled.url, outcome, reason });
    switch (crawled.outcome) {
      case 'fetched': {
        progress.fetched += 1;
        const stored = await this.keep(site, crawled, page);
        if (stored === 'unchanged') progress.unchanged += 1;
        else if (stored === 'changed') progress.changed += 1;
        else {
          progress.skipped += 1;
          return problem('skipped', stored.reason);
        }
        return undefined;
      }
      case 'unchanged':
        progress.unchanged += 1;
        if (page !== undefined) await this.recordCheck(page, { config: checkedConfig('unchanged', crawled.reason) });
        return undefined;
      case 'gone':
        if (page === undefined) {
          progress.failed += 1;
          return problem('gone', `Listed or linked, but not there: ${crawled.reason}`);
        }
        await this.remove(page);
        progress.removed += 1;
        return undefined;
      case 'skipped':
        progress.skipped += 1;
        if (page !== undefined) {
          await this.remove(page);
          progress.removed += 1;
        }
        return problem('skipped', crawled.reason);
      case 'failed':
        progress.failed += 1;
        if (page !== undefined) {
          const error = `The last check failed (${crawled.reason}); the content indexed before is kept`;
          await this.recordCheck(page, { error, config: checkedConfig('failed', crawled.reason) });
        }
        return problem('failed', crawled.reason);
    }
  }

  /**
   * Keeps a fetched page as the site's page at its URL: the same bytes as indexed change nothing; otherwise
   * the page takes the file and is indexed from it (its text compared with the index's first: the same text
   * is not embedded again). A URL another datasource of the datastore holds already is not added twice.
   */
  private async keep(
    site: DatasourceRecord,
    crawled: Extract<CrawledPage, { outcome: 'fetched' }>,
    page: DatasourceRecord | undefined,
  ): Promise<'changed' | 'unchanged' | { reason: string }> {
    const { workspaceId } = site;
    const contentHash = await fileHash(crawled.file);
    const indexed = page === undefined ? undefined : indexedPageOf(page.config);
    if (page !== undefined && page.status === 'synched' && page.nbChunks > 0 && indexed?.contentHash === contentHash) {
      const found: IndexedPage = { ...crawled.validators, contentHash, textHash: indexed.textHash };
      await this.recordCheck(page, { config: checkedConfig('unchanged', 'The same bytes as indexed', found) });
      return 'unchanged';
    }
    const kind = await sniffDocumentKind(crawled.file, new URL(crawled.finalUrl).pathname);
    if (kind === undefined) return { reason: 'Not a page or document Parley can read' };
    const { size } = await fs.stat(crawled.file);
    const prefetched: IndexedPage = { ...crawled.validators, contentHash };
    const config = { source_url: crawled.url, kind, final_url: crawled.finalUrl };
    const contentKey = urlContentKey(crawled.url);
    if (page === undefined) {
      const holder = (await this.store.datasources.findByContentKey(workspaceId, site.datastoreId, contentKey)).find(
        (other) => other.groupId !== site.id,
      );
      if (holder !== undefined) return { reason: `Already in the datastore as “${holder.name}” (${holder.id})` };
      await this.addPage(site, { config, kind, size, contentKey, prefetched, file: crawled.file, url: crawled.url });
      return 'changed';
    }
    await this.store.blobs.put(page.id, crawled.file);
    const content = {
      name: page.name,
      config: { ...page.config, ...config },
      fileKey: page.id,
      mimeType: MIME_TYPES[kind],
      sizeBytes: size,
      contentKey,
    };
    const updated = await this.store.datasources.replaceContent(workspaceId, page.id, content, (generation) =>
      ingestJob(newId(), { workspaceId, datasourceId: page.id, generation, recheck: true, prefetched }, this.options.maxAttempts),
    );
    if (updated !== undefined) {
      this.options.signals.datasourceSuperseded.notify(page.id, updated.generation);
      this.options.signals.jobEnqueued.notify();
    }
    return 'changed';
  }

  private async addPage(
    site: DatasourceRecord,
    page: {
      config: Record<string, unknown>;
      kind: keyof typeof MIME_TYPES;
      size: number;
      contentKey: string;
      prefetched: IndexedPage;
      file: string;
      url: string;
    },
  ): Promise<void> {
    const { workspaceId } = site;
    const id = newId();
    await this.store.blobs.put(id, page.file);
    const record = newDatasource({
      id,
      workspaceId,
      datastoreId: site.datastoreId,
      type: 'web_page',
      name: page.url,
      customId: null,
      groupId: site.id,
      config: page.config,
      fileKey: id,
      mimeType: MIME_TYPES[page.kind],
      sizeBytes: page.size,
      contentKey: page.contentKey,
    });
    const job = ingestJob(newId(), { workspaceId, datasourceId: id, generation: 1, prefetched: page.prefetched }, this.options.maxAttempts);
    try {
      await this.store.datasources.create(record, job);
    } catch (error) {
      await this.store.blobs.delete(id);
      throw error;
    }
    await this.store.datasources.markQueued(workspaceId, id);
    this.options.signals.jobEnqueued.notify();
  }

  /** A check of a page that changes nothing of its index (an outcome, and the validators it came with). */
  private async recordCheck(page: DatasourceRecord, progress: DatasourceProgress): Promise<void> {
    await this.store.datasources.report(page.workspaceId, page.id, page.generation, progress);
  }

  private async remove(page: DatasourceRecord): Promise<void> {
    await this.store.datasources.delete(page.workspaceId, page.id);
    this.options.signals.datasourceSuperseded.notify(page.id);
    if (page.fileKey !== null) await this.store.blobs.delete(page.fileKey);
  }

  /** The page's stored HTML, for its links after a 304; none when it was not HTML or is gone. */
  private async storedText(page: DatasourceRecord): Promise<string | undefined> {
    if (page.fileKey === null || page.config.kind !== 'html') return undefined;
    try {
      return await this.store.blobs.withLocalFile(page.fileKey, (file) => fs.readFile(file, 'utf8'));
    } catch {
      return undefined;
    }
  }
}
