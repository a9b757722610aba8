import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { FIXTURES, uploadFile, waitForDatasource } from '../support/datasources.js';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import type { AgentBody, AnswerBody, ConversationBody, DatasourceBody, DatastoreBody, SearchHitBody } from '../support/bodies.js';

const QUESTIONS = ['Where does IBM have its headquarters?', 'Who is Anna Pavlovna?'];

/** Hits as the client sees them; scores rounded so an index rebuilt from the same vectors compares equal. */
const searchFor = async (parley: TestParley, ws: Workspace, datastoreId: string, query: string) => {
  const { status, body } = await parley.call<SearchHitBody[]>('POST', `/datastores/${datastoreId}/query`, { key: ws.key, body: { query, topK: 6 } });
  expect(status).toBe(200);
  return body.map((hit) => ({ text: hit.text, datasource: hit.datasource_id, score: hit.score.toFixed(5) }));
};

describe('parley backup and parley restore of the embedded store', () => {
  const folders: string[] = [];
  const newFolder = async (name: string) => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), `parley-${name}-`));
    folders.push(folder);
    return folder;
  };
  let source: TestParley;
  let ws: Workspace;
  let datastoreId: string;
  let datasourceIds: string[];
  let conversationId: string;
  /** A finished backup, for the refusal cases. */
  let backupDir: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    source = await startParley('sqlite', { workers: true, env: { PARLEY_EMBEDDINGS_THREADS: '1' } });
    ws = await source.newWorkspace();
    datastoreId = (await source.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'Library' } })).body.id;
    const text = await source.call<DatasourceBody>('POST', '/datasources', {
      key: ws.key,
      body: { type: 'text', datastoreId, name: 'IBM', text: await fs.readFile(path.join(FIXTURES, 'md-ibm-wiki.md'), 'utf8') },
    });
    const file = await uploadFile<DatasourceBody>(source, { key: ws.key, datastoreId, file: path.join(FIXTURES, 'txt-war-and-peace-ch1.txt') });
    datasourceIds = [text.body.id, file.body.id];
    for (const id of datasourceIds) expect(await waitForDatasource(source, ws.key, id, { timeoutMs: 120_000 })).toMatchObject({ status: 'synched' });
    const agentId = (
      await source.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Librarian', tools: [{ type: 'datastore', datastoreId }] } })
    ).body.id;
    const answer = await source.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query: QUESTIONS[0] } });
    expect(answer.status).toBe(200);
    conversationId = answer.body.conversationId;
  }, 180_000);

  afterAll(async () => {
    await source?.close();
    for (const folder of folders) await fs.rm(folder, { recursive: true, force: true });
  });

  it('copies a consistent store while the server takes writes, and a server on the restored copy has it all', async () => {
    const hitsBefore = await Promise.all(QUESTIONS.map((query) => searchFor(source, ws, datastoreId, query)));
    expect(hitsBefore.every((hits) => hits.length > 0)).toBe(true);

    // Agents created one after the other while the backup runs: a consistent copy holds a prefix of them.
    const written: string[] = [];
    let backupDone = false;
    const writer = (async () => {
      while (!backupDone) {
        const created = await source.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: `During backup ${written.length}` } });
        expect(created.status).toBe(200);
        written.push(created.body.id);
      }
    })();
    backupDir = await newFolder('backup');
    const backup = await runCli(['backup', backupDir], source.scratch.env).finally(() => (backupDone = true));
    await writer;
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(written.length).toBeGreaterThan(1);

    const manifest = JSON.parse(await fs.readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as { migration: string; files: { path: string }[] };
    expect(manifest.migration).toMatch(/^\d{3}-/);
    // Each datasource's stored document beside the database; no vector index (rebuilt on first search).
    const blobs = datasourceIds.map((id) => `files/${id.slice(0, 2)}/${id}`);
    expect(manifest.files.map((file) => file.path)).toEqual([...blobs, 'parley.sqlite'].sort());

    const dataDir = path.join(await newFolder('restored'), 'data');
    const restore = await runCli(['restore', backupDir], { PARLEY_DATA_DIR: dataDir });
    expect(restore, restore.stderr).toMatchObject({ code: 0 });

    const restored = await startTestParley('sqlite', { keepDir: dataDir, workers: true, env: { PARLEY_EMBEDDINGS_THREADS: '1' } });
    try {
      const agents = await restored.call<AgentBody[]>('GET', '/agents', { key: ws.key });
      expect(agents.status).toBe(200);
      const during = agents.body.filter((agent) => agent.name.startsWith('During backup')).map((agent) => agent.id);
      // Taken in the middle of the writes: some before the snapshot, some after, and no gap.
      expect(during.length).toBeGreaterThan(0);
      expect(during.length).toBeLessThan(written.length);
      expect(written.slice(0, during.length).sort()).toEqual([...during].sort());
      expect(agents.body.map((agent) => agent.name)).toContain('Librarian');

      for (const id of datasourceIds) {
        const [before, after] = await Promise.all(
          [source, restored].map((parley) => parley.call<DatasourceBody>('GET', `/datasources/${id}`, { key: ws.key })),
        );
        expect(after!.body).toEqual(before!.body);
      }
      const conversation = await restored.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key });
      expect(conversation.status).toBe(200);
      expect(JSON.stringify(conversation.body)).toContain(QUESTIONS[0]);

      const hitsAfter = await Promise.all(QUESTIONS.map((query) => searchFor(restored, ws, datastoreId, query)));
      expect(hitsAfter).toEqual(hitsBefore);

      // The uploaded file came along: a re-sync reads it again and ends as it was.
      const resync = await restored.call('POST', `/datasources/${datasourceIds[1]}/resync`, { key: ws.key });
      expect(resync.status).toBe(200);
      const resynced = await waitForDatasource(restored, ws.key, datasourceIds[1]!, { timeoutMs: 120_000 });
      expect(resynced).toMatchObject({
        status: 'synched',
        nbChunks: (await source.call<DatasourceBody>('GET', `/datasources/${datasourceIds[1]}`, { key: ws.key })).body.nbChunks,
      });
    } finally {
      await restored.close();
    }
  }, 240_000);

  it('refuses a target folder that is not empty, and leaves it as it was', async () => {
    const target = await newFolder('occupied');
    await fs.writeFile(path.join(target, 'notes.txt'), 'mine');
    const result = await runCli(['backup', target], source.scratch.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('is not empty');
    expect(await fs.readdir(target)).toEqual(['notes.txt']);
  });

  it('refuses to restore into a data directory that is not empty, unless --force', async () => {
    const dataDir = await newFolder('busy');
    await fs.writeFile(path.join(dataDir, 'parley.sqlite'), 'an older store');
    const refused = await runCli(['restore', backupDir], { PARLEY_DATA_DIR: dataDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--force');
    expect(await fs.readFile(path.join(dataDir, 'parley.sqlite'), 'utf8')).toBe('an older store');

    const forced = await runCli(['restore', backupDir, '--force'], { PARLEY_DATA_DIR: dataDir });
    expect(forced, forced.stderr).toMatchObject({ code: 0 });
    expect(await fs.readFile(path.join(dataDir, 'parley.sqlite'))).toEqual(await fs.readFile(path.join(backupDir, 'parley.sqlite')));
  });

  it('refuses a backup whose files differ from its manifest, or whose manifest is not one', async () => {
    const tampered = await newFolder('tampered');
    await fs.cp(backupDir, tampered, { recursive: true });
    const database = await fs.open(path.join(tampered, 'parley.sqlite'), 'r+');
    await database.write(Buffer.from('x'), 0, 1, 4096);
    await database.close();
    const dataDir = path.join(await newFolder('never'), 'data');
    const changed = await runCli(['restore', tampered], { PARLEY_DATA_DIR: dataDir });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('parley.sqlite');
    expect(changed.stderr).toContain('SHA-256');

    await fs.writeFile(path.join(tampered, 'manifest.json'), JSON.stringify({ format: 'parley-backup', formatVersion: 1, files: [] }));
    const invalid = await runCli(['restore', tampered], { PARLEY_DATA_DIR: dataDir });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('manifest');
    await expect(fs.access(dataDir)).rejects.toThrow();
  });

  it('points a PostgreSQL store at pg_dump instead of copying anything', async () => {
    const target = path.join(await newFolder('pg'), 'backup');
    const result = await runCli(['backup', target], { PARLEY_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/parley' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pg_dump');
    await expect(fs.access(target)).rejects.toThrow();
  });
});
