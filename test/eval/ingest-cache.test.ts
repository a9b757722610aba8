import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IngestCache } from '../../eval/ingest-cache.js';

describe('IngestCache', () => {
  let dir: string;
  const fingerprint = { corpus: 'c1', chunking: '400/60', embedder: 'local', ingestionCode: 'h1' };
  const open = (print = fingerprint, options = { reingest: false, ignoreCodeChanges: false }) => IngestCache.open(dir, print, options);

  afterEach(() => fs.rm(path.dirname(dir), { recursive: true, force: true }));

  async function newDir() {
    dir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'parley-eval-cache-')), 'store');
  }

  it('reuses a finished ingestion with the same fingerprint, and only that', async () => {
    await newDir();
    const first = await open();
    expect(first.state).toEqual({ kind: 'fresh', reason: 'new cache directory' });
    await fs.writeFile(path.join(dir, 'parley.sqlite'), 'data');
    expect((await open()).state).toMatchObject({ kind: 'fresh', reason: 'previous ingestion did not finish' });
    expect(await fs.readdir(dir)).toEqual(['eval-cache.json']);

    await (await open()).complete({ datastoreId: 'ds1', ingestionMs: 1000, documents: 3 });
    expect((await open()).state).toMatchObject({ kind: 'reuse', codeChanged: false, manifest: { datastoreId: 'ds1', documents: 3 } });

    const newCode = { ...fingerprint, ingestionCode: 'h2' };
    expect((await open(newCode, { reingest: false, ignoreCodeChanges: true })).state).toMatchObject({ kind: 'reuse', codeChanged: true });
    const changed = await open({ ...newCode, chunking: '200/30' });
    expect(changed.state).toMatchObject({ kind: 'fresh', reason: expect.stringMatching(/chunking \(400\/60 → 200\/30\), ingestionCode/) });
  });

  it('re-ingests on request and never empties a directory it did not make', async () => {
    await newDir();
    await (await open()).complete({ datastoreId: 'ds1', ingestionMs: 1000, documents: 3 });
    expect((await open(fingerprint, { reingest: true, ignoreCodeChanges: false })).state).toEqual({ kind: 'fresh', reason: '--reingest' });

    await fs.rm(path.join(dir, 'eval-cache.json'));
    await fs.writeFile(path.join(dir, 'precious.txt'), 'keep me');
    await expect(open()).rejects.toThrow(/refusing/);
    expect(await fs.readFile(path.join(dir, 'precious.txt'), 'utf8')).toBe('keep me');
  });
});
