import http from 'node:http';
import { afterAll, describe, expect } from 'vitest';
import { REFRESH_JOB, refreshJob } from '../../src/domain/ingestion/refresh-schedule.js';
import type { DatasourceBody, DatastoreBody } from '../support/bodies.js';
import { ingestJobs } from '../support/datasources.js';
import { FakeEmbeddingsServer } from '../support/fake-embeddings-server.js';
import { closeServer, listenOnLoopback } from '../support/loopback-server.js';
import { parleyTest } from '../support/parley-test.js';
import type { TestParley } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process.js';
import { TestWebsite } from '../support/test-website.js';

/** Two `parley worker` processes on one PostgreSQL database, one due scheduled re-sync: it runs once. */
describe.runIf(STORE_KINDS.includes('postgres'))('a due re-sync with two worker processes on postgres', () => {
  const embeddings = new FakeEmbeddingsServer();
  let fetches = 0;
  const site = http.createServer((request, response) => {
    fetches += 1;
    if (request.headers['if-none-match'] === '"v1"') return void response.writeHead(304, { etag: '"v1"' }).end();
    response
      .writeHead(200, { 'content-type': 'text/html', etag: '"v1"' })
      .end('<html><body><main><p>Orders placed by noon ship the same day.</p></main></body></html>');
  });
  /** A site with a sitemap, for the due re-crawl of a website datasource. */
  const website = new TestWebsite();
  const workers: WorkerProcess[] = [];
  let parley: TestParley;
  let env: Record<string, string>;
  let siteUrl: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    siteUrl = await listenOnLoopback(site);
    await website.start();
    env = { PARLEY_EMBEDDINGS_URL: await embeddings.start(), PARLEY_EMBEDDINGS_MODEL: 'fake-embed' };
    parley = await startParley('postgres', { env });
    workers.push(...(await Promise.all([0, 1].map(() => startWorkerProcess({ ...parley.scratch.env, ...env })))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await closeServer(site);
    await website.stop();
    await embeddings.stop();
  });

  parleyTest(
    'runs it once and queues the next run once',
    async () => {
      const ws = await parley.newWorkspace();
      const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
      const created = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_page', datastoreId, config: { source_url: `${siteUrl}/shipping`, refreshInterval: 'daily' } },
      });
      const id = created.body.id;
      const get = async () => (await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key: ws.key })).body;
      const indexed = await until(get, (body) => body.status === 'synched', 60_000);

      // The run falls due now: the API process schedules it, as each worker process would; one job.
      const dueAt = new Date(Date.now() - 1000).toISOString();
      await parley.core.store.datasources.changeConfig(ws.id, id, (config) => ({ ...config, nextRefreshAt: dueAt }));
      await parley.core.store.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: id, dueAt }));
      await parley.core.store.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: id, dueAt }));
      const fetchesBefore = fetches;

      const ran = await until(
        () => parley.core.store.jobs.find(`refresh:${id}:${dueAt}`),
        (job) => job?.status === 'done',
        30_000,
      );
      const checked = await until(get, (body) => body.status === 'synched' && body.config.lastCheck?.at !== indexed.config.lastCheck?.at, 30_000);
      // Both workers poll every half second: a second run, were there one, would show by now.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(ran?.attempts).toBe(1);
      expect(fetches).toBe(fetchesBefore + 1);
      expect((await ingestJobs(parley, id)).length).toBe(2);
      expect(checked.config.lastCheck).toMatchObject({ outcome: 'unchanged' });
      const next = (await get()).config.nextRefreshAt;
      const queued = (await parley.core.store.jobs.list({ kind: REFRESH_JOB, statuses: ['queued'] })).filter(
        (job) => job.payload.datasourceId === id,
      );
      expect(queued.map((job) => job.id)).toContain(`refresh:${id}:${next}`);
      expect(queued.filter((job) => job.runAt === next)).toHaveLength(1);
    },
    120_000,
  );

  parleyTest(
    'crawls a website once when its due run is held by both workers',
    async () => {
      const page = (name: string) => ({ body: TestWebsite.html(name, `The ${name} page of the shop.`), etag: `"${name}"` });
      website.pages.set('/sitemap.xml', { body: TestWebsite.urlset(['a', 'b', 'c'].map((name) => ({ loc: `${website.url}/help/${name}` }))) });
      for (const name of ['a', 'b', 'c']) website.pages.set(`/help/${name}`, page(name));
      const ws = await parley.newWorkspace();
      const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
      const created = await parley.call<DatasourceBody>('POST', '/datasources', {
        key: ws.key,
        body: { type: 'web_site', datastoreId, config: { source_url: `${website.url}/help/`, refreshInterval: 'daily' } },
      });
      const id = created.body.id;
      const get = async () => (await parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key: ws.key })).body;
      const crawled = await until(get, (body) => body.status === 'synched' && body.config.crawl?.finishedAt !== undefined, 60_000);
      expect(crawled.config.crawl).toMatchObject({ found: 3, changed: 3 });
      const pages = async () =>
        (await parley.call<DatasourceBody[]>('GET', `/datastores/${datastoreId}/datasources`, { key: ws.key })).body.filter((each) => each.id !== id);
      await until(pages, (list) => list.length === 3 && list.every((each) => each.status === 'synched'), 60_000);

      const dueAt = new Date(Date.now() - 1000).toISOString();
      await parley.core.store.datasources.changeConfig(ws.id, id, (config) => ({ ...config, nextRefreshAt: dueAt }));
      await parley.core.store.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: id, dueAt }));
      await parley.core.store.jobs.enqueueOnce(refreshJob({ workspaceId: ws.id, datasourceId: id, dueAt }));
      const requestsBefore = website.requests.length;
      await until(
        () => parley.core.store.jobs.find(`refresh:${id}:${dueAt}`),
        (job) => job?.status === 'done',
        30_000,
      );
      const recrawled = await until(
        get,
        (body) => body.status === 'synched' && body.config.crawl?.startedAt !== crawled.config.crawl?.startedAt,
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // One crawl: robots.txt, the sitemap and each page asked for once, conditionally.
      expect(website.pathsSince(requestsBefore).sort()).toEqual(['/help/a', '/help/b', '/help/c', '/robots.txt', '/sitemap.xml']);
      expect(
        website.requests
          .slice(requestsBefore)
          .filter((request) => request.path.startsWith('/help/'))
          .every((request) => request.ifNoneMatch !== undefined),
      ).toBe(true);
      expect(recrawled.config.crawl).toMatchObject({ unchanged: 3, changed: 0, removed: 0 });
      expect((await ingestJobs(parley, id)).length).toBe(2);
    },
    120_000,
  );
});
