import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSE_LIMITS } from '../../src/rag/ingest/parse/parse-limits.js';
import type { PrepareTask } from '../../src/rag/ingest/prepare-document.js';
import { PreparePool } from '../../src/rag/ingest/prepare-pool.js';
import { FIXTURES } from '../support/datasources.js';
import { writeLongReport } from '../support/long-report.js';

const task = (filePath: string): PrepareTask => ({
  filePath,
  kind: 'docx',
  chunking: { maxTokens: 400, overlapTokens: 60 },
  limits: PARSE_LIMITS,
});

describe('parse threads', () => {
  let dir: string;
  let report: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-pool-'));
    report = await writeLongReport(dir, 300);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('read a 300-page report within the default memory bound', async () => {
    const pool = new PreparePool({ threads: 1 });
    try {
      const prepared = await pool.prepare(task(report));
      expect(prepared.ok).toBe(true);
      expect(prepared.ok && prepared.chunks.length).toBeGreaterThan(100);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('turn a document that runs its thread out of memory into a readable refusal, and carry on', async () => {
    const pool = new PreparePool({ threads: 1, memoryMb: 96 });
    try {
      expect(await pool.prepare(task(report))).toEqual({
        ok: false,
        unreadable: 'Reading the document takes over 96 MB of memory, the most Parley gives one document; split it into smaller documents',
      });
      const small = await pool.prepare(task(path.join(FIXTURES, 'docx-summer-activities.docx')));
      expect(small.ok).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('stop a parse where it is when its signal aborts', async () => {
    const pool = new PreparePool({ threads: 1 });
    try {
      const controller = new AbortController();
      const running = pool.prepare(task(report), controller.signal);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const aborted = performance.now();
      controller.abort();
      await expect(running).rejects.toThrow(/abort/i);
      expect(performance.now() - aborted).toBeLessThan(200);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
