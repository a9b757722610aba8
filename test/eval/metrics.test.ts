import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataset, readQrels } from '../../eval/dataset.js';
import { summarize, type QueryOutcome } from '../../eval/evaluate-mode.js';
import {
  distinctDocuments,
  documentRecall,
  firstAnswerRank,
  firstRelevantRank,
  normalizeWhitespace,
  percentile,
  prepareAnswers,
  type ScoredHit,
} from '../../eval/metrics.js';

const hit = (customId: string | null, text = ''): ScoredHit => ({ customId, text });

describe('document metrics', () => {
  const hits = [hit('a'), hit('a'), hit(null), hit('b'), hit('c')];
  const relevant = new Set(['b']);

  it('ranks over distinct documents or over raw hits', () => {
    expect(distinctDocuments(hits)).toEqual(['a', 'b', 'c']);
    expect(firstRelevantRank(hits, relevant, 10, 'documents')).toBe(2);
    expect(firstRelevantRank(hits, relevant, 10, 'hits')).toBe(4);
    expect(firstRelevantRank(hits, relevant, 3, 'hits')).toBeNull();
    expect(firstRelevantRank(hits, new Set(['z']), 10, 'documents')).toBeNull();
  });

  it('computes recall as the share of relevant documents found within k hits', () => {
    expect(documentRecall(hits, relevant, 10)).toBe(1);
    expect(documentRecall(hits, relevant, 3)).toBe(0);
    expect(documentRecall(hits, new Set(['a', 'z']), 10)).toBe(0.5);
    expect(documentRecall(hits, new Set(), 10)).toBe(0);
  });
});

describe('answer hits', () => {
  it('compares whitespace-normalised text, with and without case', () => {
    const answers = prepareAnswers(['  The  Virus\nspreads ', '']);
    expect(answers.exact).toEqual(['The Virus spreads']);
    const hits = [hit('a', 'nothing here'), hit('a', 'so the virus\n\n spreads fast'), hit('b', 'The Virus spreads')];
    expect(firstAnswerRank(hits, answers, 5, false)).toBe(2);
    expect(firstAnswerRank(hits, answers, 5, true)).toBe(3);
    expect(firstAnswerRank(hits, answers, 2, true)).toBeNull();
    expect(firstAnswerRank(hits, prepareAnswers([]), 5, false)).toBeNull();
    expect(normalizeWhitespace(' a\t b \n')).toBe('a b');
  });
});

describe('aggregation', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('averages document metrics over judged queries and answer-hit over answered ones', () => {
    const base: QueryOutcome = {
      queryId: 'q',
      latencyMs: 10,
      error: null,
      hitCustomIds: [],
      judged: true,
      recall: 1,
      docRank: 2,
      hitRank: 4,
      answered: true,
      answerRank: 6,
      answerRankCaseSensitive: null,
    };
    const metrics = summarize(
      [base, { ...base, latencyMs: 30, judged: false, recall: 0, docRank: null, hitRank: null, answerRank: 1, answerRankCaseSensitive: 1 }],
      { topK: 10, answerK: 5 },
    );
    expect(metrics).toMatchObject({ judgedQueries: 1, recall: 1, docMrr: 0.5, hitMrr: 0.25, answeredQueries: 2 });
    expect(metrics).toMatchObject({ answerHit: 0.5, answerHitCaseSensitive: 0.5, answerHitAtTopK: 1 });
    expect(metrics.latencyMs).toEqual({ p50: 10, p95: 30, mean: 20 });
  });
});

describe('dataset', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  async function files(contents: Record<string, string>) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-eval-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(contents)) await fs.writeFile(path.join(dir, name), text);
    return (name: string) => path.join(dir, name);
  }

  it('reads BEIR files: optional answers and titles, numeric ids, header and zero scores in the qrels', async () => {
    const file = await files({
      'corpus.jsonl': '{"_id": "d1", "title": "T", "text": "x"}\n\n{"_id": 2, "text": "y"}\n',
      'queries.jsonl': [
        '{"_id": "q1", "text": "a?", "metadata": {"answers": ["x"]}}',
        '{"_id": "q2", "text": "b?"}',
        '{"_id": "q3", "text": "c?", "metadata": {}}',
      ].join('\n'),
      'qrels.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\t2\t2\nq2\td1\t0\nq2\tgone\t1\n',
    });
    const dataset = await loadDataset({ corpus: file('corpus.jsonl'), queries: file('queries.jsonl'), qrels: file('qrels.tsv') });
    expect(dataset.documents).toEqual([
      { id: 'd1', title: 'T', text: 'x' },
      { id: '2', title: '', text: 'y' },
    ]);
    expect(dataset.queries).toEqual([
      { id: 'q1', text: 'a?', answers: ['x'], relevant: new Set(['d1']), unanswerable: false },
      { id: 'q2', text: 'b?', answers: [], relevant: new Set(['2', 'gone']), unanswerable: false },
    ]);
    expect(dataset.skippedQueries).toBe(1);
    expect(dataset.missingJudgedDocuments).toEqual(['gone']);
  });

  it('names the line of a malformed row', async () => {
    const file = await files({
      'bad.jsonl': '{"_id": "d1", "text": "x"}\n{"_id": "d2"}\n',
      'good.tsv': 'q1\td1\t1\n',
      'bad.tsv': 'query-id\tcorpus-id\tscore\nq1 d1\n',
    });
    await expect(loadDataset({ corpus: file('bad.jsonl'), queries: file('bad.jsonl'), qrels: file('good.tsv') })).rejects.toThrow(/bad\.jsonl:2/);
    await expect(readQrels(file('bad.tsv'))).rejects.toThrow(/bad\.tsv:2/);
    await expect(readQrels(file('good.tsv'))).resolves.toEqual(new Map([['q1', new Set(['d1'])]]));
  });
});
