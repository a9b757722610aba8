import { ingestJob } from './ingestion/ingest-job.js';
import { firstDueAt, refreshIntervalOf, refreshJob, type RefreshInterval, type RefreshTarget } from './ingestion/refresh-schedule.js';
import { DatasourceRefresh } from './ingestion/datasource-refresh.js';
import type { OutboundPolicy } from '../net/address-policy.js';
import { checkSourceUrl } from './source-url.js';
import type { DocumentKind } from '../rag/ingest/document.js';
import { MIME_TYPES } from '../rag/ingest/mime-types.js';
import { sniffDocumentKind } from '../rag/ingest/parse/sniff-kind.js';
import { vectorLayout } from '../rag/ingest/vector-windows.js';
import type { ChunkRecord, DatasourceRecord, DatasourceType, NewJob, Store } from '../store/store.js';
import { datasourceName } from './datasource-name.js';
import { ParleyError, invalid, notFound } from '../errors.js';
import { fileContentKey, siteContentKey, urlContentKey } from './duplicate-keys.js';
import { checkCorrectedAnswer } from './qa/corrected-answer.js';
import { firstWords, withTextFile, type UploadedFile } from './uploaded-file.js';
import { checkedQaEntry, qaDocument, qaEntryOf, type QaConfig, type QaEntry } from './qa/qa-entry.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import { newDatasource } from './new-datasource.js';
import type { Signals } from './signals.js';

/**
 * What to do when the datastore already holds the content (file, text) or the URL (web page) being added:
 * - `use_existing` (default): add nothing; the answer is the datasource holding it, so a client that
 *   sends the same file again (a retried request, a zap run twice) gets a record it can read;
 * - `keep_both`: add it anyway;
 * - `replace`: the datasource holding it (else, for a file or a text, the one of the same name: a new
 *   version of a document) takes the new content and is indexed again, keeping its id;
 * - `reject`: refuse with DUPLICATE_DATASOURCE naming it, for a person to choose (the dashboard).
 */
export type OnDuplicate = 'use_existing' | 'keep_both' | 'replace' | 'reject';

interface Common {
  datastoreId: string;
  customId?: string;
  onDuplicate?: OnDuplicate;
}

/** A datasource added, and the one of the datastore that already held its content or URL (if any). */
export interface AddedDatasource {
  datasource: DatasourceRecord;
  duplicateOf: DatasourceRecord | undefined;
}

/** What a new datasource is made of, before it is looked for among the datastore's. */
interface NewContent {
  type: DatasourceType;
  name: string;
  config: Record<string, unknown>;
  kind: DocumentKind | undefined;
  upload: UploadedFile | undefined;
  contentKey: string;
}

/** The types whose content key Parley knows how to compute (duplicate-keys.ts). */
const KEYED_TYPES: readonly DatasourceType[] = ['file', 'text', 'web_page', 'web_site'];

/** Names of the request field that carried the content, for a refusal to point at. */
const CONTENT_FIELD: Readonly<Record<string, string>> = { file: 'file', text: 'text', web_page: 'url', web_site: 'url' };

export interface DatasourceServiceOptions {
  /** Where text bodies are written before they join the blob store. */
  tempDir: string;
  maxAttempts: number;
  /** Where web pages may be fetched from (PARLEY_OUTBOUND_ALLOW). */
  outbound: OutboundPolicy;
  /** Tells in-process workers of queued and overtaken jobs (other processes see them within a poll). */
  signals: Pick<Signals, 'jobEnqueued' | 'datasourceSuperseded'>;
}

const HELD: Readonly<Record<string, string>> = { web_page: 'page', web_site: 'site' };

/** How a website is crawled, as a caller gives it (see src/domain/ingestion/site-settings.ts for defaults). */
export interface WebSiteInput {
  url: string;
  include?: string[];
  exclude?: string[];
  maxPages?: number;
  maxDepth?: number;
  refreshInterval?: RefreshInterval;
}

/** The refusal of `onDuplicate: reject`, naming the datasource that holds the content already. */
const duplicateDatasource = (holder: DatasourceRecord, type: DatasourceType): ParleyError =>
  new ParleyError(
    'DUPLICATE_DATASOURCE',
    `“${holder.name}” (${holder.id}) in this datastore already holds this ${HELD[type] ?? 'content'}: replace it, or keep both`,
    {
      details: [{ field: CONTENT_FIELD[type] ?? 'type', message: `is already held by datasource ${holder.id}` }],
      existing: { id: holder.id, name: holder.name, type: holder.type },
    },
  );

/** A Q&A entry as a caller gives it: other wordings optional. */
export type QaInput = Omit<QaEntry, 'questions'> & { questions?: string[] };

const SUPPORTED = 'PDF, DOCX, PPTX, XLSX, CSV, TXT, Markdown, HTML and JSON';

export class DatasourceService {
  private readonly refresh: DatasourceRefresh;

  constructor(
    private readonly store: Store,
    private readonly options: DatasourceServiceOptions,
  ) {
    this.refresh = new DatasourceRefresh(store, options.signals, (workspaceId, id) => this.resync(workspaceId, id));
  }

  async createFromFile(workspaceId: string, input: Common & { fileName?: string; upload: UploadedFile }): Promise<AddedDatasource> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    const uploadedName = datasourceName(input.upload.fileName);
    const kind = await sniffDocumentKind(input.upload.path, uploadedName);
    if (kind === undefined) {
      throw new ParleyError('UNSUPPORTED_MEDIA_TYPE', `${uploadedName} is not a document Parley can read; supported: ${SUPPORTED}`);
    }
    const name = datasourceName(input.fileName, uploadedName);
    const content = {
      type: 'file' as const,
      name,
      config: { file_name: name, kind },
      kind,
      upload: input.upload,
      contentKey: input.upload.contentKey,
    };
    return this.add(workspaceId, input, content);
  }

  async createFromText(workspaceId: string, input: Common & { name?: string; text: string }): Promise<AddedDatasource> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    if (input.text.trim() === '') throw invalid('The text is empty', [{ field: 'text', message: 'must not be blank' }]);
    return withTextFile(this.options.tempDir, input.text, async (upload, kind) => {
      const name = datasourceName(input.name, firstWords(input.text));
      const text = { type: 'text' as const, name, config: { kind }, kind, upload: { ...upload, fileName: name }, contentKey: upload.contentKey };
      return this.add(workspaceId, input, text);
    });
  }

  /**
   * A question and its answer (see qa-entry.ts); with `sourceMessageId`, the correction of that agent answer,
   * which must be one in the workspace by an agent that searches `datastoreId`. Never a duplicate: a second
   * entry for the same question is a choice the team makes (precedence takes the closest).
   */
  async createQa(workspaceId: string, input: Common & { name?: string; entry: QaInput; sourceMessageId?: string }): Promise<DatasourceRecord> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    const entry = checkedQaEntry(input.entry);
    if (input.sourceMessageId !== undefined) await checkCorrectedAnswer(this.store, workspaceId, input.datastoreId, input.sourceMessageId);
    const config: QaConfig = { ...entry, ...(input.sourceMessageId === undefined ? {} : { sourceMessageId: input.sourceMessageId }) };
    return withTextFile(this.options.tempDir, qaDocument(entry), async (upload, kind) => {
      const name = datasourceName(input.name, entry.question);
      const qa = {
        type: 'qa' as const,
        name,
        config: { ...config, kind },
        kind,
        upload: { ...upload, fileName: name },
        contentKey: upload.contentKey,
      };
      return this.create(workspaceId, input, qa);
    });
  }

  /**
   * Changes a Q&A entry (what is left out stays) and indexes it again; the name follows the question
   * unless it was given one of its own.
   */
  async editQa(workspaceId: string, id: string, changes: Partial<QaInput>): Promise<DatasourceRecord> {
    const datasource = await this.get(workspaceId, id);
    const current = datasource.type === 'qa' ? qaEntryOf(datasource.config) : undefined;
    if (current === undefined)
      throw invalid('Only a Q&A datasource is edited this way; re-sync the others', [{ field: 'id', message: 'not a qa datasource' }]);
    const entry = checkedQaEntry({ ...current, ...changes });
    const name = datasource.name === datasourceName(undefined, current.question) ? datasourceName(undefined, entry.question) : datasource.name;
    await withTextFile(this.options.tempDir, qaDocument(entry), async (upload, kind) => {
      await this.store.blobs.put(id, upload.path);
      const config = { ...datasource.config, ...entry, kind };
      await this.store.datasources.report(workspaceId, id, datasource.generation, { name, config, fileKey: id, sizeBytes: upload.size });
    });
    return this.resync(workspaceId, id);
  }

  async createFromWebPage(
    workspaceId: string,
    input: Common & { name?: string; url: string; refreshInterval?: RefreshInterval },
  ): Promise<AddedDatasource> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    checkSourceUrl(input.url, this.options.outbound);
    const name = datasourceName(input.name, input.url);
    const config = { source_url: input.url, ...(input.refreshInterval === undefined ? {} : { refreshInterval: input.refreshInterval }) };
    const content = { type: 'web_page' as const, name, config, kind: undefined, upload: undefined };
    return this.add(workspaceId, input, { ...content, contentKey: urlContentKey(input.url) });
  }

  /**
   * A website: crawled in the background (src/domain/ingestion/site-sync.ts), each page a web_page datasource
   * whose groupId is the site's id; the site itself holds no chunks. Re-synced as a whole, on its schedule too.
   */
  async createFromWebSite(workspaceId: string, input: Common & { name?: string; site: WebSiteInput }): Promise<AddedDatasource> {
    await this.requireDatastore(workspaceId, input.datastoreId);
    const { url, ...settings } = input.site;
    checkSourceUrl(url, this.options.outbound);
    const name = datasourceName(input.name, url);
    const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
    const content = { type: 'web_site' as const, name, config: { source_url: url, ...defined }, kind: undefined, upload: undefined };
    return this.add(workspaceId, input, { ...content, contentKey: siteContentKey(url) });
  }

  /**
   * `PATCH /datasources/{id}`: a Q&A entry's question, answer or other wordings, a URL source's refresh
   * interval; what is left out stays. Checked whole before anything changes.
   */
  async change(workspaceId: string, id: string, changes: { refreshInterval?: RefreshInterval; entry: Partial<QaInput> }): Promise<DatasourceRecord> {
    const datasource = await this.get(workspaceId, id);
    const editsEntry = Object.values(changes.entry).some((value) => value !== undefined);
    if (editsEntry && datasource.type !== 'qa') {
      throw invalid('Only a Q&A datasource has a question and an answer to change; re-sync the others', [
        { field: 'config', message: 'question, answer and questions belong to qa datasources' },
      ]);
    }
    let changed = datasource;
    if (changes.refreshInterval !== undefined) changed = await this.setRefreshInterval(workspaceId, id, changes.refreshInterval);
    if (editsEntry) changed = await this.editQa(workspaceId, id, changes.entry);
    return changed;
  }

  /** Sets how often a datasource fetched from a URL is re-synced (see DatasourceRefresh). */
  async setRefreshInterval(workspaceId: string, id: string, interval: RefreshInterval): Promise<DatasourceRecord> {
    return this.refresh.setInterval(await this.get(workspaceId, id), interval);
  }

  /** One due run of a datasource's schedule (the refresh job). */
  runDueRefresh(target: RefreshTarget): Promise<void> {
    return this.refresh.runDue(target);
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
    // A site's pages go with it; the site first, so a crawl under way stops adding pages.
    const pages = datasource.type === 'web_site' ? await this.store.datasources.listByGroup(workspaceId, id) : [];
    for (const each of [datasource, ...pages.filter((page) => page.id !== id)]) {
      await this.store.datasources.delete(workspaceId, each.id);
      this.options.signals.datasourceSuperseded.notify(each.id);
      if (each.fileKey !== null) await this.store.blobs.delete(each.fileKey);
    }
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

  /** Adds the content unless the datastore holds it already, as `onDuplicate` says. */
  private async add(workspaceId: string, input: Common, content: NewContent): Promise<AddedDatasource> {
    const onDuplicate = input.onDuplicate ?? 'use_existing';
    await this.keyOlderDatasources(workspaceId, input.datastoreId);
    const holders = await this.store.datasources.findByContentKey(workspaceId, input.datastoreId, content.contentKey);
    const duplicateOf = holders[0];
    if (onDuplicate === 'use_existing' && duplicateOf !== undefined) return { datasource: duplicateOf, duplicateOf };
    if (onDuplicate === 'reject' && duplicateOf !== undefined) throw duplicateDatasource(duplicateOf, content.type);
    if (onDuplicate === 'replace') {
      const target = holders.find((holder) => holder.type === content.type) ?? (await this.sameName(workspaceId, input.datastoreId, content));
      if (target !== undefined) return { datasource: await this.replace(workspaceId, target, content), duplicateOf };
    }
    return { datasource: await this.create(workspaceId, input, content), duplicateOf };
  }

  /** A file or a text of the same name: the document a replacing upload is a new version of. */
  private async sameName(workspaceId: string, datastoreId: string, content: NewContent): Promise<DatasourceRecord | undefined> {
    if (content.type === 'web_page' || content.type === 'web_site') return undefined;
    return (await this.store.datasources.findByName(workspaceId, datastoreId, content.name, [content.type]))[0];
  }

  /** The datasource takes the new content (a new blob: the old one may still be read by a job being stopped). */
  private async replace(workspaceId: string, target: DatasourceRecord, content: NewContent): Promise<DatasourceRecord> {
    const fileKey = content.upload === undefined ? target.fileKey : newId();
    if (content.upload !== undefined && fileKey !== null) await this.store.blobs.put(fileKey, content.upload.path);
    const replaced = {
      name: content.name,
      config: content.upload === undefined ? { ...target.config, ...content.config } : content.config,
      fileKey,
      mimeType: content.kind === undefined ? target.mimeType : MIME_TYPES[content.kind],
      sizeBytes: content.upload === undefined ? target.sizeBytes : content.upload.size,
      contentKey: content.contentKey,
    };
    const updated = await this.store.datasources.replaceContent(workspaceId, target.id, replaced, (generation) =>
      this.ingestJob(workspaceId, target.id, generation),
    );
    if (updated === undefined) {
      // Deleted meanwhile: what was written for it goes too.
      if (fileKey !== target.fileKey && fileKey !== null) await this.store.blobs.delete(fileKey);
      throw notFound('Datasource', target.id);
    }
    this.options.signals.datasourceSuperseded.notify(target.id, updated.generation);
    this.options.signals.jobEnqueued.notify();
    if (fileKey !== target.fileKey && target.fileKey !== null) await this.store.blobs.delete(target.fileKey);
    return updated;
  }

  /**
   * Keys the datastore's datasources made before content keys were kept (migration 022), so they are
   * found as duplicates too: once per datasource, on the first addition to its datastore since.
   */
  private async keyOlderDatasources(workspaceId: string, datastoreId: string): Promise<void> {
    for (const datasource of await this.store.datasources.listWithoutContentKey(workspaceId, datastoreId, KEYED_TYPES)) {
      const key = await this.contentKeyOfStored(datasource);
      if (key !== undefined) await this.store.datasources.setContentKey(workspaceId, datasource.id, key);
    }
  }

  private async contentKeyOfStored(datasource: DatasourceRecord): Promise<string | undefined> {
    const url = datasource.config.source_url;
    if (datasource.type === 'web_page') return typeof url === 'string' ? urlContentKey(url) : undefined;
    if (datasource.type === 'web_site') return typeof url === 'string' ? siteContentKey(url) : undefined;
    if (datasource.fileKey === null) return undefined;
    try {
      return await this.store.blobs.withLocalFile(datasource.fileKey, fileContentKey);
    } catch {
      // A stored file gone missing must not stop additions to its datastore; it stays unkeyed, tried again next time.
      return undefined;
    }
  }

  private async create(workspaceId: string, input: Common, content: NewContent): Promise<DatasourceRecord> {
    const { type, name, config, kind, upload } = content;
    const id = newId();
    const at = now();
    const interval = refreshIntervalOf(config);
    const dueAt = interval === 'off' ? undefined : firstDueAt(interval, new Date(at));
    if (upload !== undefined) await this.store.blobs.put(id, upload.path);
    const datasource = newDatasource({
      id,
      workspaceId,
      datastoreId: input.datastoreId,
      type,
      name,
      customId: input.customId ?? null,
      // A site is the first of its group; its pages join it as they are found.
      groupId: type === 'web_site' ? id : null,
      config: dueAt === undefined ? config : { ...config, nextRefreshAt: dueAt },
      fileKey: upload === undefined ? null : id,
      mimeType: kind === undefined ? null : MIME_TYPES[kind],
      sizeBytes: upload?.size ?? null,
      contentKey: content.contentKey,
    });
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
}
