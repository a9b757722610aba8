import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_ANSWER } from '../../src/llm/chat/compose-extractive-answer.js';
import { FIXTURES, uploadFile, waitForDatasource } from '../support/datasources.js';
import { HELP_CENTRE_DIR } from '../support/fixtures.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, AnswerBody, DatasourceBody, DatastoreBody } from '../support/bodies.js';

/** The help pages, and the shared fixture documents that sit beside them as unrelated neighbours. */
const HELP_PAGES = ['kestrel-outdoor-help.md', 'tallyboard-account-faq.html'];
const NEIGHBOURS = ['html-wikipedia-duck.html', 'txt-war-and-peace-ch1.txt', 'csv-customers-comma.csv', 'pdf-memo-1p.pdf', 'md-ibm-wiki.md'];

interface HelpQuestion {
  _id: string;
  text: string;
  metadata: { answers: string[]; source?: string; unanswerable?: boolean };
}

const questions: HelpQuestion[] = fs
  .readFileSync(path.join(HELP_CENTRE_DIR, 'questions.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as HelpQuestion);
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
/** The page text as the answer may quote it: markup and list marks aside, whitespace collapsed. */
const pageText = (name: string) => squash(fs.readFileSync(path.join(HELP_CENTRE_DIR, name), 'utf8').replace(/<[^>]+>/g, ''));

describe.each(STORE_KINDS)('the built-in model answers customers from a help centre on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { workers: true });
    ws = await parley.newWorkspace();
    const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: ws.key, body: { name: 'help' } })).body.id;
    const files = [...NEIGHBOURS.map((name) => path.join(FIXTURES, name)), ...HELP_PAGES.map((name) => path.join(HELP_CENTRE_DIR, name))];
    const created = await Promise.all(files.map((file) => uploadFile<DatasourceBody>(parley, { key: ws.key, datastoreId, file })));
    for (const { body } of created) expect((await waitForDatasource(parley, ws.key, body.id, { timeoutMs: 600_000 })).status).toBe('synched');
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { tools: [{ type: 'datastore', datastoreId }] } })).body.id;
  }, 900_000);

  const ask = async (query: string) => {
    const { status, body } = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: ws.key, body: { query } });
    expect(status).toBe(200);
    return { answer: body.answer ?? '' };
  };

  it.each(questions.filter((question) => !question.metadata.unanswerable).map((question) => [question.text, question] as const))(
    '%s',
    async (_, question) => {
      const { answer } = await ask(question.text);
      expect(
        question.metadata.answers.some((expected) => answer.includes(expected)),
        answer,
      ).toBe(true);
      // One passage cited, by its number in the prompt, and no "Sources:" line beside it.
      const citations = [...answer.matchAll(/\[(\d+)\]/g)].map((match) => match[1]);
      expect(new Set(citations).size, answer).toBe(1);
      expect(answer).toMatch(/ \[\d+\]$/);
      expect(answer).not.toContain('Sources:');
      // Quoted from the help page that holds the answer: never a heading path, a question heading or a neighbour's sentence.
      const quoted = squash(answer.replace(/ \[\d+\]$/, ''))
        .replace(/^- /, '')
        .split(' - ');
      for (const part of quoted) expect(pageText(question.metadata.source!), answer).toContain(part);
      expect(answer).not.toContain(' > ');
    },
  );

  it.each(questions.filter((question) => question.metadata.unanswerable).map((question) => [question.text] as const))(
    'says it could not find "%s", citing nothing',
    async (text) => {
      const { answer } = await ask(text);
      expect(answer).toBe(NOT_FOUND_ANSWER);
      expect(answer).not.toMatch(/\[\d+\]/);
    },
  );
});
