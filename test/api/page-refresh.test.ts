import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasourceService } from '../../src/domain/datasources.js';
import { newId } from '../../src/domain/ids.js';
import { RefreshDatasourceHandler } from '../../src/domain/ingestion/refresh-datasource.js';
import { REFRESH_JOB, refreshJob } from '../../src/domain/ingestion/refresh-schedule.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import type { ChunkBody, DatasourceBody, DatastoreBody, ErrorBody } from '../support/bodies.js';
import { ingestJobs, waitForDatasource } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';

/** A page the loopback site serves: its HTML and the validators it answers with (none when absent). */
interface ServedPage {
  html: string;
  etag?: string;
  lastModified?: string;
  status?: number;
}

const html = (text: string, extra = '') =>
  `<html><head><title>Returns</title>${extra}</head><body><main><h1>Returns</h1><p>${text}</p></main></body></html>`;

const DAY_MS = 86_400_000;

describe.each(STORE_KINDS)('web page refresh on %s', (kind) => {
  const embeddings = new FakeEmbeddingsServer();
  const pages = new Map<string, ServedPage>();
  /** Every request the site got: path and the conditional headers it carried. */
  const requests: Array<{ path: string; ifNoneMatch?: string; ifModifiedSince?: string }> = [];
  const site = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    requests.push({ path, ifNoneMatch, ifModifiedSince });
    const page = pages.get(path);
    if (page === undefined || page.status !== undefined) return void response.writeHead(page?.status ?? 404).end('gone');
    const validators = { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { 'last-modified': page.lastModified } : {}) };
    const unchanged =
      (page.etag !== undefined && ifNoneMatch === page.etag) ||
      (page.etag === undefined && page.lastModified !== undefined && ifModifiedSince === page.lastModified);
    if (unchanged) return void response.writeHead(304, validators).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...validators }).end(page.html);
  });
  let siteUrl: string;
  let parley: TestParley;
  let ws: Workspace;
  let datastoreId: string;

  beforeAll(async () => {
    siteUrl = await listenOnLoopback(site);
  });
  afterAll(async () => {
    await closeServer(site);
    await embeddings.stop();
  });

  parleyTest.beforeAll(async ({ startParley }) => {
    const url = await embeddings.start();
    parley = await startParley(kind, { workers: true, env: { PARLEY_EMBEDDINGS_URL: url, PARLEY_EMBEDDINGS_MODEL: 'fake-embed' } });
    ws = await parley.newWorkspace();
    datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
  });

  const get = async (id: string) => (await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key: ws.key })).body;
  const chunks = async (id: string) => (await parley.call<ChunkBody[]>('GET', `/datasources/${id}/chunks`, { key: ws.key })).body;

  /** A page served at `path`, added as a datasource and indexed. */
  async function indexedPage(path: string, page: ServedPage, config: Record<string, unknown> = {}): Promise<DatasourceBody> {
    pages.set(path, page);
    const created = await parley.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'web_page', datastoreId, config: { source_url: `${siteUrl}${path}`, ...config } },
    });
    expect(created.status).toBe(200);
    const done = await waitForDatasource(parley, ws.key, created.body.id);
    expect(done).toMatchObject({ status: 'synched', config: { lastCheck: { outcome: 'changed' } } });
    return done;
  }

  /** Re-syncs through the API and waits for the check it makes (a lastCheck newer than the one before). */
  async function recheck(datasource: DatasourceBody): Promise<DatasourceBody> {
    const before = datasource.config.lastCheck?.at;
    expect((await parley.call('POST', `/datasources/${datasource.id}/resync`, { key: ws.key })).status).toBe(200);
    return until(
      () => get(datasource.id),
      (body) => body.status !== 'pending' && body.status !== 'running' && body.config.lastCheck !== undefined && body.config.lastCheck.at !== before,
      30_000,
    );
  }

  it('sends the ETag back; a 304 keeps the index as it is, with no parsing and no embedding', async () => {
    const first = await indexedPage('/etag', { html: html('Returns are accepted within thirty days.'), etag: '"v1"' });
    expect(first.config).toMatchObject({ etag: '"v1"', contentHash: expect.stringMatching(/^sha256:/), textHash: expect.stringMatching(/^sha256:/) });
    const indexed = await chunks(first.id);
    const embedCalls = embeddings.requests.length;
    const checked = await recheck(first);
    expect(requests.at(-1)).toMatchObject({ path: '/etag', ifNoneMatch: '"v1"' });
    expect(checked).toMatchObject({ status: 'synched', progress: 1, error: null, lastSynch: first.lastSynch, nbChunks: first.nbChunks });
    expect(checked.config.lastCheck).toMatchObject({ outcome: 'unchanged', reason: expect.stringMatching(/304/) });
    expect(embeddings.requests.length).toBe(embedCalls);
    // The same chunk records: their ids carry the generation that wrote them.
    expect(await chunks(first.id)).toEqual(indexed);
  });

  it('sends Last-Modified back as If-Modified-Since when the server gives no ETag', async () => {
    const lastModified = 'Tue, 03 Nov 2026 10:00:00 GMT';
    const first = await indexedPage('/dated', { html: html('Exchanges are free of charge.'), lastModified });
    const embedCalls = embeddings.requests.length;
    const checked = await recheck(first);
    expect(requests.at(-1)).toMatchObject({ path: '/dated', ifModifiedSince: lastModified, ifNoneMatch: undefined });
    expect(checked.config.lastCheck).toMatchObject({ outcome: 'unchanged' });
    expect(embeddings.requests.length).toBe(embedCalls);
  });

  it('answers a 200 of the same bytes, or of other markup around the same text, without embedding', async () => {
    const first = await indexedPage('/plain', { html: html('Refunds reach your card within five days.') });
    const embedCalls = embeddings.requests.length;
    const same = await recheck(first);
    expect(same.config.lastCheck).toMatchObject({ outcome: 'unchanged', reason: 'The same bytes as indexed' });
    pages.set('/plain', { html: html('Refunds reach your card within five days.', '<meta name="build" content="2026-11-29">') });
    const restyled = await recheck(same);
    expect(restyled.config.lastCheck).toMatchObject({ outcome: 'unchanged', reason: 'The extracted text is the same' });
    expect(restyled.config.contentHash).not.toBe(first.config.contentHash);
    expect(embeddings.requests.length).toBe(embedCalls);
    expect(restyled).toMatchObject({ status: 'synched', lastSynch: first.lastSynch });
  });

  it('re-embeds a page whose text changed', async () => {
    const first = await indexedPage('/changing', { html: html('Parcels ship on Mondays.'), etag: '"a"' });
    const embedCalls = embeddings.requests.length;
    pages.set('/changing', { html: html('Parcels ship every weekday from the Leeds warehouse.'), etag: '"b"' });
    const changed = await recheck(first);
    expect(changed.config).toMatchObject({ etag: '"b"', lastCheck: { outcome: 'changed' } });
    expect(changed.lastSynch).not.toBe(first.lastSynch);
    const embedded = embeddings.requests.slice(embedCalls).flatMap((request) => request.body.input);
    expect(embedded.some((input) => input.includes('Leeds warehouse'))).toBe(true);
    expect((await chunks(first.id)).map((chunk) => chunk.text).join(' ')).toContain('Leeds warehouse');
  });

  it('keeps the index of a page that now answers 404 and shows why the check failed', async () => {
    const first = await indexedPage('/vanishing', { html: html('Gift cards never expire.') });
    pages.set('/vanishing', { html: '', status: 404 });
    const failed = await recheck(first);
    expect(failed).toMatchObject({ status: 'synched', nbChunks: first.nbChunks, error: expect.stringMatching(/404/) });
    expect(failed.config.lastCheck).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/404/) });
    expect((await chunks(first.id)).map((chunk) => chunk.text).join(' ')).toContain('Gift cards never expire');
  });

  describe('the refresh interval', () => {
    const patch = (id: string, body: unknown, key = ws.key) => parley.call<DatasourceBody & ErrorBody>('PATCH', `/datasources/${id}`, { key, body });
    const queuedRuns = async (id: string) =>
      (await parley.core.store.jobs.list({ kind: REFRESH_JOB, statuses: ['queued'] })).filter((job) => job.payload.datasourceId === id);
    const near = (iso: string | undefined, expected: number) => Math.abs(Date.parse(iso ?? '') - expected) < 60_000;

    it('is taken on creation, changed and turned off through PATCH, each change scheduling the next run', async () => {
      const created = await indexedPage('/scheduled', { html: html('Our shop opens at nine.') }, { refreshInterval: 'daily' });
      expect(created.config.refreshInterval).toBe('daily');
      expect(near(created.config.nextRefreshAt, Date.now() + DAY_MS)).toBe(true);
      expect((await queuedRuns(created.id)).map((job) => job.id)).toEqual([`refresh:${created.id}:${created.config.nextRefreshAt}`]);

      const weekly = await patch(created.id, { config: { refreshInterval: 'weekly' } });
      expect(weekly.status).toBe(200);
      expect(weekly.body.config.refreshInterval).toBe('weekly');
      expect(near(weekly.body.config.nextRefreshAt, Date.now() + 7 * DAY_MS)).toBe(true);
      expect((await queuedRuns(created.id)).map((job) => job.runAt)).toContain(weekly.body.config.nextRefreshAt);

      const off = await patch(created.id, { config: { refreshInterval: 'off' } });
      expect(off.status).toBe(200);
      expect(off.body.config.refreshInterval).toBe('off');
      expect(off.body.config.nextRefreshAt).toBeUndefined();
      expect((await get(created.id)).config).toMatchObject({ refreshInterval: 'off', source_url: `${siteUrl}/scheduled` });
    });

    it('refuses an unknown interval with 400 INVALID_REQUEST, and an interval for a datasource with no URL', async () => {
      const page = await indexedPage('/validated', { html: html('Delivery is free over fifty pounds.') });
      const bad = await patch(page.id, { config: { refreshInterval: 'hourly' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('INVALID_REQUEST');
      const created = await parley.call<DatasourceBody & ErrorBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_page', datastoreId, config: { source_url: `${siteUrl}/validated`, refreshInterval: 'monthly' } },
      });
      expect(created.status).toBe(400);
      expect(created.body.error).toBe('INVALID_REQUEST');
      const text = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'text', datastoreId, text: 'Plain words.' },
      });
      const refused = await patch(text.body.id, { config: { refreshInterval: 'daily' } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('INVALID_REQUEST');
      expect((await get(page.id)).config.refreshInterval).toBeUndefined();
      // A page of a site (its groupId the site's id) is re-checked by its site.
      const site = (await parley.core.store.datasources.find(ws.id, page.id))!;
      const child = { ...site, id: newId(), groupId: site.id };
      await parley.core.store.datasources.create(child, { id: newId(), kind: 'never-claimed', workspaceId: ws.id, payload: {}, maxAttempts: 1 });
      const childRefused = await patch(child.id, { config: { refreshInterval: 'weekly' } });
      expect(childRefused.status).toBe(400);
      expect(childRefused.body.message).toMatch(/site/);
    });

    it('refuses a change to another workspace’s datasource with 403 and leaves it as it was', async () => {
      const page = await indexedPage('/theirs', { html: html('Returns by post are free.') }, { refreshInterval: 'daily' });
      const other = await parley.newWorkspace();
      const refused = await patch(page.id, { config: { refreshInterval: 'off' } }, other.key);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('FORBIDDEN');
      expect((await get(page.id)).config).toMatchObject({ refreshInterval: 'daily', nextRefreshAt: page.config.nextRefreshAt });
    });

    it('runs a due re-sync once, however many workers hold the queue, and queues the run after it', async () => {
      const page = await indexedPage('/due', { html: html('Collection points close at eight.'), etag: '"due"' }, { refreshInterval: 'daily' });
      const dueAt = new Date(Date.now() - 1000).toISOString();
      // Another store connection is another process's on PostgreSQL; SQLite is one process's file.
      const otherStore: Store = kind === 'postgres' ? await openStore(parley.config.store, parley.scratch.dataDir) : parley.core.store;
      const otherService = new DatasourceService(otherStore, {
        tempDir: parley.scratch.dataDir,
        maxAttempts: 3,
        outbound: parley.core.outbound,
        signals: parley.core.signals,
      });
      const runners = [parley.core.services.datasources, otherService].map(
        (service, index) =>
          new JobRunner(
            index === 0 ? parley.core.store.jobs : otherStore.jobs,
            { [REFRESH_JOB]: new RefreshDatasourceHandler(service) },
            {
              concurrency: 2,
              leaseMs: 30_000,
              pollMs: 10,
              backoff: { baseMs: 50, maxMs: 100 },
            },
          ),
      );
      try {
        await parley.core.store.datasources.changeConfig(ws.id, page.id, (config) => ({ ...config, nextRefreshAt: dueAt }));
        // Both processes schedule the same due run: one job.
        await parley.core.store.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: page.id, dueAt }));
        await otherStore.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: page.id, dueAt }));
        const fetchesBefore = requests.filter((request) => request.path === '/due').length;
        for (const runner of runners) runner.start();
        const ran = await until(
          () => parley.core.store.jobs.find(`refresh:${page.id}:${dueAt}`),
          (job) => job?.status === 'done',
        );
        expect(ran?.attempts).toBe(1);
        const checked = await until(
          () => get(page.id),
          (body) => body.status === 'synched' && body.config.lastCheck?.at !== page.config.lastCheck?.at,
        );
        // Give a second run, were there one, the time to show.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect((await ingestJobs(parley, page.id)).length).toBe(2);
        expect(requests.filter((request) => request.path === '/due').length).toBe(fetchesBefore + 1);
        expect(checked.config.lastCheck).toMatchObject({ outcome: 'unchanged' });
        const next = (await get(page.id)).config.nextRefreshAt;
        expect(near(next, Date.parse(dueAt) + DAY_MS)).toBe(true);
        expect((await queuedRuns(page.id)).map((job) => job.id)).toContain(`refresh:${page.id}:${next}`);
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
        if (otherStore !== parley.core.store) await otherStore.close();
      }
    });

    it('finds nothing to do in a due run of a schedule turned off', async () => {
      const page = await indexedPage('/stopped', { html: html('Lockers open all night.') }, { refreshInterval: 'weekly' });
      const dueAt = page.config.nextRefreshAt!;
      await parley.call('PATCH', `/datasources/${page.id}`, { key: ws.key, body: { config: { refreshInterval: 'off' } } });
      await parley.core.services.datasources.runDueRefresh({ workspaceId: ws.id, datasourceId: page.id, dueAt });
      expect((await ingestJobs(parley, page.id)).length).toBe(1);
      expect(await queuedRuns(page.id)).toHaveLength(1);
    });
  });
});
