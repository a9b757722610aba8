import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentKind } from '../../src/rag/ingest/document.js';
import { PARSE_LIMITS } from '../../src/rag/ingest/parse/parse-limits.js';
import type { PreparedDocument, PrepareTask } from '../../src/rag/ingest/prepare-document.js';
import { PreparePool } from '../../src/rag/ingest/prepare-pool.js';
import { FIXTURES } from '../support/datasources.js';
import { writeLongReport } from '../support/long-report.js';

const task = (filePath: string, kind: DocumentKind, seconds = PARSE_LIMITS.seconds): PrepareTask => ({
  filePath,
  kind,
  chunking: { maxTokens: 400, overlapTokens: 60 },
  limits: { ...PARSE_LIMITS, seconds },
});

/** CPU seconds this process (its parse threads included) uses in the second after next. */
async function cpuSecondsSoonAfter(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1e6;
}

const chunkText = (prepared: PreparedDocument): string => (prepared.ok ? prepared.chunks.map((chunk) => chunk.text).join('\n') : prepared.unreadable);

describe('parse threads with a time budget', () => {
  let dir: string;
  let report: string;
  let pool: PreparePool;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-budget-'));
    report = await writeLongReport(dir, 300);
    pool = new PreparePool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stop a document past its budget where it is, answer why, and carry on with the next', async () => {
    // The 300-page report takes several seconds to parse; one second is its budget here.
    const started = performance.now();
    expect(await pool.prepare(task(report, 'docx', 1))).toEqual({
      ok: false,
      unreadable: 'Reading the document took over 1 second, the most Parley gives one document; split it into smaller documents',
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    // The thread was terminated, not left to finish: nothing is parsing any more.
    expect(await cpuSecondsSoonAfter()).toBeLessThan(0.3);
    const small = await pool.prepare(task(path.join(FIXTURES, 'docx-summer-activities.docx'), 'docx', 30));
    expect(small.ok).toBe(true);
  }, 60_000);

  it('read a page of 50,000 nested elements, without the reader view and without overflowing the stack', async () => {
    const depth = 50_000;
    const page = path.join(dir, 'nested.html');
    await writeFile(
      page,
      `<html><head><title>Nested</title></head><body>${'<div>'.repeat(depth)}<p>The innermost paragraph.</p>` +
        `${'</div>'.repeat(depth)}<p>The paragraph after.</p></body></html>`,
    );
    const prepared = await pool.prepare(task(page, 'html'));
    expect(chunkText(prepared)).toBe('The innermost paragraph.\n\nThe paragraph after.');
  }, 60_000);

  it('refuse a document nested too deep for a parser that recurses, at once and with a reason', async () => {
    const depth = 200_000;
    const json = path.join(dir, 'nested.json');
    await writeFile(json, `${'{"a":'.repeat(depth)}"the value"${'}'.repeat(depth)}`);
    expect(await pool.prepare(task(json, 'json'))).toEqual({
      ok: false,
      unreadable: 'The document nests its content too deep to be read; flatten its structure or split it',
    });
  }, 60_000);
});
