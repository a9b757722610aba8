import type { CorpusDocument, EvalQuery } from './dataset.js';
import { datasourceOf } from './ingest-corpus.js';
import { normalizeWhitespace, prepareAnswers } from './metrics.js';
import type { Datasource, ParleyClient } from './parley-client.js';

const PAGE = 500;

/**
 * Ceilings of answer-hit, case-insensitive, over queries with both answers and a judged document: how
 * often an answer is in the judged document at all, and how often it lies whole inside one of its chunks
 * (an answer cut by a chunk boundary can never be hit). Chunks come from the API as indexed.
 */
export interface AnswerCoverage {
  queries: number;
  inDocument: number;
  inOneChunk: number;
  /** Chunks over all datasources, and per document on average. */
  chunks: number;
  chunksPerDocument: number;
}

async function chunkTexts(client: ParleyClient, datasourceId: string): Promise<string[]> {
  const texts: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await client.listChunks(datasourceId, offset, PAGE);
    texts.push(...page.map((chunk) => normalizeWhitespace(chunk.text).toLowerCase()));
    if (page.length < PAGE) return texts;
  }
}

export async function measureAnswerCoverage(
  client: ParleyClient,
  datasources: readonly Datasource[],
  documents: readonly CorpusDocument[],
  queries: readonly EvalQuery[],
): Promise<AnswerCoverage> {
  const chunks = datasources.reduce((total, datasource) => total + datasource.nbChunks, 0);
  const measured = queries.filter((query) => query.answers.length > 0 && query.relevant.size > 0);
  const datasourceOfDocument = new Map(
    datasources.flatMap((datasource) => (datasource.custom_id === null ? [] : [[datasource.custom_id, datasource.id]])),
  );
  const documentById = new Map(documents.map((document) => [document.id, document]));

  const textCache = new Map<string, string>();
  const chunkCache = new Map<string, string[]>();
  let inDocument = 0;
  let inOneChunk = 0;
  for (const query of measured) {
    const answers = prepareAnswers(query.answers).lower;
    let foundInDocument = false;
    let foundInChunk = false;
    for (const documentId of query.relevant) {
      const document = documentById.get(documentId);
      if (document === undefined) continue;
      let text = textCache.get(documentId);
      if (text === undefined) {
        text = normalizeWhitespace(datasourceOf(document)?.text ?? '').toLowerCase();
        textCache.set(documentId, text);
      }
      foundInDocument ||= answers.some((answer) => text.includes(answer));
      const datasourceId = datasourceOfDocument.get(documentId);
      if (datasourceId === undefined) continue;
      let texts = chunkCache.get(datasourceId);
      if (texts === undefined) {
        texts = await chunkTexts(client, datasourceId);
        chunkCache.set(datasourceId, texts);
      }
      foundInChunk ||= texts.some((chunk) => answers.some((answer) => chunk.includes(answer)));
    }
    if (foundInDocument) inDocument += 1;
    if (foundInChunk) inOneChunk += 1;
  }
  return {
    queries: measured.length,
    inDocument: measured.length === 0 ? Number.NaN : inDocument / measured.length,
    inOneChunk: measured.length === 0 ? Number.NaN : inOneChunk / measured.length,
    chunks,
    chunksPerDocument: datasources.length === 0 ? 0 : chunks / datasources.length,
  };
}
