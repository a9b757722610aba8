import path from 'node:path';

/** Real documents of every kind Parley reads, with their sources and licences in `MANIFEST.md`. */
export const DOCS_DIR = path.resolve(import.meta.dirname, '../fixtures/docs');

/** The COVID-QA development articles (98 long real texts), shared with `npm run eval`; see its README. */
export const COVID_QA_CORPUS = path.resolve(import.meta.dirname, '../../eval/covid-qa/corpus.jsonl');

/** A shop's and a SaaS's help pages written for Parley's tests, with customers' questions (see its MANIFEST.md). */
export const HELP_CENTRE_DIR = path.resolve(import.meta.dirname, '../fixtures/help-centre');
