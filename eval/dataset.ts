import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

/** BEIR ids are strings, though some exports write numbers. */
const Id = z.union([z.string().min(1), z.number()]).transform(String);

const CorpusLine = z.object({
  _id: Id,
  title: z
    .string()
    .nullish()
    .transform((title) => title ?? ''),
  text: z.string(),
});

const QueryLine = z.object({
  _id: Id,
  text: z.string().min(1),
  metadata: z.object({ answers: z.array(z.string()).optional(), unanswerable: z.boolean().optional() }).nullish(),
});

export interface CorpusDocument {
  id: string;
  title: string;
  text: string;
}

export interface EvalQuery {
  id: string;
  text: string;
  /** Empty when the dataset has none: answer-hit is then not measured for this query. */
  answers: string[];
  /** Ids of the documents judged relevant (score > 0); empty when the qrels do not judge the query. */
  relevant: Set<string>;
  /** The corpus does not answer it: the answerer should say it could not find the answer. */
  unanswerable: boolean;
}

export interface Dataset {
  documents: CorpusDocument[];
  /** Queries with something to measure: a judged document, an answer, or both. */
  queries: EvalQuery[];
  /** Queries in the file with neither judgments nor answers. */
  skippedQueries: number;
  /** Relevant documents named in the qrels but absent from the corpus. */
  missingJudgedDocuments: string[];
}

export interface DatasetPaths {
  corpus: string;
  queries: string;
  qrels: string;
}

/** The non-blank lines of a text file, with 1-based line numbers; streamed, so large corpora are fine. */
async function* linesOf(file: string): AsyncGenerator<{ line: string; number: number }> {
  const reader = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let number = 0;
  for await (const line of reader) {
    number += 1;
    if (line.trim() !== '') yield { line, number };
  }
}

async function readJsonLines<T>(file: string, schema: z.ZodType<T>): Promise<T[]> {
  const rows: T[] = [];
  for await (const { line, number } of linesOf(file)) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${file}:${number}: not JSON (${(error as Error).message})`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new Error(`${file}:${number}: ${z.prettifyError(parsed.error)}`);
    rows.push(parsed.data);
  }
  return rows;
}

/** `query-id corpus-id score` per line, tab-separated (or whitespace); a header line is skipped. */
export async function readQrels(file: string): Promise<Map<string, Set<string>>> {
  const qrels = new Map<string, Set<string>>();
  for await (const { line, number } of linesOf(file)) {
    const columns = line.includes('\t') ? line.split('\t').map((column) => column.trim()) : line.trim().split(/\s+/);
    const [queryId, docId, rawScore] = columns;
    const score = Number(rawScore);
    if (queryId === undefined || docId === undefined || rawScore === undefined || !Number.isFinite(score)) {
      if (number === 1 || queryId === 'query-id') continue;
      throw new Error(`${file}:${number}: expected "query-id<TAB>corpus-id<TAB>score", got "${line}"`);
    }
    if (score <= 0) continue;
    const relevant = qrels.get(queryId) ?? new Set<string>();
    relevant.add(docId);
    qrels.set(queryId, relevant);
  }
  return qrels;
}

/** Files of a corpus folder read as documents; other kinds (PDF, Office) go through uploads, not the evaluation. */
const TEXT_FILE = /\.(md|markdown|html?|txt|csv)$/i;

/**
 * A folder of text files as corpus rows, one document per file (id and title: the file name), for a small
 * hand-made set such as the help-centre fixture. Files that are not UTF-8 are skipped.
 */
async function readCorpusFolder(folder: string): Promise<z.infer<typeof CorpusLine>[]> {
  const names = (await fs.readdir(folder)).filter((name) => TEXT_FILE.test(name)).sort();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const rows: z.infer<typeof CorpusLine>[] = [];
  for (const name of names) {
    try {
      rows.push({ _id: name, title: name, text: decoder.decode(await fs.readFile(path.join(folder, name))) });
    } catch {
      // Not UTF-8 (a UTF-16 fixture, say): not a text document for this purpose.
    }
  }
  return rows;
}

/** `--corpus`: JSON lines, or folders of text files; several, comma-separated, are one corpus. */
async function readCorpus(corpus: string): Promise<z.infer<typeof CorpusLine>[]> {
  const parts = await Promise.all(
    corpus.split(',').map(async (part) => ((await fs.stat(part)).isDirectory() ? readCorpusFolder(part) : readJsonLines(part, CorpusLine))),
  );
  return parts.flat();
}

export async function loadDataset(paths: DatasetPaths): Promise<Dataset> {
  const [corpusRows, queryRows, qrels] = await Promise.all([
    readCorpus(paths.corpus),
    Promise.all(paths.queries.split(',').map((part) => readJsonLines(part, QueryLine))).then((parts) => parts.flat()),
    readQrels(paths.qrels),
  ]);
  const documents = corpusRows.map((row) => ({ id: row._id, title: row.title.trim(), text: row.text }));
  const documentIds = new Set<string>();
  for (const document of documents) {
    if (documentIds.has(document.id)) throw new Error(`${paths.corpus}: document id ${document.id} appears twice`);
    documentIds.add(document.id);
  }

  const queries: EvalQuery[] = [];
  let skippedQueries = 0;
  for (const row of queryRows) {
    const answers = (row.metadata?.answers ?? []).filter((answer) => answer.trim() !== '');
    const relevant = qrels.get(row._id) ?? new Set<string>();
    const unanswerable = row.metadata?.unanswerable ?? false;
    if (relevant.size === 0 && answers.length === 0 && !unanswerable) skippedQueries += 1;
    else queries.push({ id: row._id, text: row.text, answers, relevant, unanswerable });
  }
  const missingJudgedDocuments = [...new Set(queries.flatMap((query) => [...query.relevant]))].filter((id) => !documentIds.has(id));
  return { documents, queries, skippedQueries, missingJudgedDocuments };
}
