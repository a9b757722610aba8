import fs from 'node:fs';
import path from 'node:path';

/** The COVID-QA fixture shared by the benches: 98 articles and the dev queries. */
export const COVID_QA_DIR = path.resolve(import.meta.dirname, '../eval/covid-qa');

export interface Article {
  id: string;
  title: string;
  text: string;
}

function readJsonLines(file: string): unknown[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

const field = (row: unknown, name: string): string => {
  const value = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

export function readArticles(dir = COVID_QA_DIR): Article[] {
  return readJsonLines(path.join(dir, 'corpus.jsonl'))
    .map((row) => ({ id: field(row, '_id'), title: field(row, 'title'), text: field(row, 'text') }))
    .filter((article) => article.text.trim() !== '');
}

export function readQueries(dir = COVID_QA_DIR): string[] {
  return readJsonLines(path.join(dir, 'queries-dev.jsonl'))
    .map((row) => field(row, 'text'))
    .filter((text) => text.trim() !== '');
}
