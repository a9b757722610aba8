import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkDocument, DEFAULT_CHUNKING, type ChunkingOptions, type TextChunk } from '../../src/rag/ingest/chunk-document.js';
import { countTokens } from '../../src/text/count-tokens.js';
import type { DocumentSection, ParsedDocument } from '../../src/rag/ingest/document.js';
import { COVID_QA_CORPUS } from '../support/fixtures.js';

const corpusFile = COVID_QA_CORPUS;

/** The four longest articles of the COVID-QA corpus (48–67 kB each). */
const articles: string[] = readFileSync(corpusFile, 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { text: string }).text)
  .sort((a, b) => b.length - a.length)
  .slice(0, 4);

const SMALL: ChunkingOptions = { maxTokens: 128, overlapTokens: 20 };

function textDocument(text: string): ParsedDocument {
  return { kind: 'txt', sections: [{ text }] };
}

/** The chunk's text without its heading line. */
function body(chunk: TextChunk): string {
  if (chunk.headings === undefined) return chunk.text;
  const prefix = `${chunk.headings.join(' > ')}\n\n`;
  expect(chunk.text.startsWith(prefix)).toBe(true);
  return chunk.text.slice(prefix.length);
}

/**
 * Where in `previous` the overlap that opens `next` starts: the earliest word start whose suffix `next`
 * begins with; -1 when there is none.
 */
function overlapStart(previous: string, next: string): number {
  for (let index = 0; index < previous.length; index++) {
    if (index > 0 && !/\s/.test(previous[index - 1]!)) continue;
    if (next.startsWith(previous.slice(index))) return index;
  }
  return -1;
}

/** The bodies of one flow of chunks put back together, each overlap removed once. */
function stitch(chunks: readonly TextChunk[]): string {
  let text = '';
  let previous = '';
  for (const chunk of chunks) {
    const current = body(chunk);
    const start = previous === '' ? -1 : overlapStart(previous, current);
    text += ' ' + (start < 0 ? current : current.slice(previous.length - start));
    previous = current;
  }
  return text;
}

const withoutSpace = (text: string): string => text.replace(/\s+/g, '');

function expectWellFormed(chunks: readonly TextChunk[], options: ChunkingOptions): void {
  chunks.forEach((chunk, index) => {
    expect(chunk.ordinal).toBe(index);
    expect(chunk.tokens).toBe(countTokens(chunk.text));
    expect(chunk.tokens).toBeLessThanOrEqual(options.maxTokens);
    expect(chunk.text).toBe(chunk.text.trim());
    expect(chunk.text).toMatch(/[\p{L}\p{N}\p{So}]/u);
  });
}

describe('chunkDocument on long articles', () => {
  it.each([
    ['default', DEFAULT_CHUNKING],
    ['small', SMALL],
  ])('keeps every chunk within the token budget (%s options)', (_name, options) => {
    for (const article of articles) {
      const chunks = chunkDocument(textDocument(article), options);
      expectWellFormed(chunks, options);
      const average = chunks.reduce((sum, chunk) => sum + chunk.tokens, 0) / chunks.length;
      expect(average).toBeGreaterThan(options.maxTokens * 0.6);
      expect(chunks.every((chunk) => chunk.pageNumber === undefined && chunk.headings === undefined)).toBe(true);
    }
  });

  it('never cuts a word: every word of a chunk is a word of the article', () => {
    for (const article of articles) {
      const words = new Set(article.split(/\s+/));
      for (const options of [DEFAULT_CHUNKING, SMALL]) {
        for (const chunk of chunkDocument(textDocument(article), options)) {
          const foreign = chunk.text.split(/\s+/).filter((word) => !words.has(word));
          expect(foreign).toEqual([]);
        }
      }
    }
  });

  it('loses no text: the chunks minus their overlaps give back the article', () => {
    for (const article of articles) {
      for (const options of [DEFAULT_CHUNKING, SMALL, { maxTokens: 200, overlapTokens: 0 }]) {
        expect(withoutSpace(stitch(chunkDocument(textDocument(article), options)))).toBe(withoutSpace(article));
      }
    }
  });

  it.each([
    ['default', DEFAULT_CHUNKING, 0.6],
    // Few whole sentences of these papers fit in 20 tokens: most overlaps start at a word.
    ['small', SMALL, 0],
  ])('opens each following chunk with ~overlapTokens of the previous tail at a word start (%s)', (_name, options, sentenceShare) => {
    const overlaps: number[] = [];
    let atSentenceStart = 0;
    for (const article of articles) {
      const chunks = chunkDocument(textDocument(article), options);
      let missing = 0;
      for (let index = 1; index < chunks.length; index++) {
        const previous = body(chunks[index - 1]!);
        const start = overlapStart(previous, body(chunks[index]!));
        if (start < 0) {
          // Only a word bigger than the overlap (a URL in the references) leaves no word start to take.
          expect(countTokens(previous.split(/\s+/).at(-1)!)).toBeGreaterThan(options.overlapTokens / 2);
          missing++;
          continue;
        }
        expect(start).toBeGreaterThan(0);
        expect(previous[start - 1]).toMatch(/\s/);
        const tokens = countTokens(previous.slice(start));
        expect(tokens).toBeLessThanOrEqual(options.overlapTokens * 1.25);
        overlaps.push(tokens);
        if (/[.!?]['")\]]*\s$|\n$/.test(previous.slice(0, start))) atSentenceStart++;
      }
      expect(missing).toBeLessThan(chunks.length * 0.1);
    }
    const average = overlaps.reduce((sum, tokens) => sum + tokens, 0) / overlaps.length;
    expect(average).toBeGreaterThan(options.overlapTokens * 0.6);
    expect(atSentenceStart / overlaps.length).toBeGreaterThanOrEqual(sentenceShare);
  });

  it('is deterministic', () => {
    const document = textDocument(articles[0]!);
    expect(chunkDocument(document)).toEqual(chunkDocument(document));
  });
});

/** Numbered sentences, so a test can tell where a chunk's text came from. */
function sentences(label: string, count: number): string {
  return Array.from({ length: count }, (_, index) => `${label} sentence ${index + 1} tells the reader something about retrieval quality.`).join(' ');
}

describe('chunkDocument on pages and sections', () => {
  it('reads consecutive PDF pages as one text and gives each chunk the page it starts on', () => {
    const pages: DocumentSection[] = [1, 2, 3, 4, 5, 6].map((page) => ({
      text: `${sentences(`Page${page}`, 8)}\n\n${sentences(`Page${page}b`, 8)}`,
      pageNumber: page,
    }));
    const options: ChunkingOptions = { maxTokens: 120, overlapTokens: 20 };
    const chunks = chunkDocument({ kind: 'pdf', sections: pages, totalPages: 6 }, options);
    expectWellFormed(chunks, options);
    for (const chunk of chunks) {
      const firstPage = Number(/^Page(\d)/.exec(chunk.text)?.[1]);
      expect(chunk.pageNumber).toBe(firstPage);
    }
    expect(chunks.some((chunk) => /Page1b.*\n\nPage2 /s.test(chunk.text))).toBe(true);
    expect(new Set(chunks.map((chunk) => chunk.pageNumber))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
  });

  it('does not join pages that are not consecutive', () => {
    const chunks = chunkDocument({
      kind: 'pdf',
      sections: [
        { text: 'Short first page.', pageNumber: 1 },
        { text: 'Page nine, after a gap.', pageNumber: 9 },
      ],
    });
    expect(chunks.map((chunk) => [chunk.pageNumber, chunk.text])).toEqual([
      [1, 'Short first page.'],
      [9, 'Page nine, after a gap.'],
    ]);
  });

  it('merges one-line slides into a few chunks that keep the slide they start on', () => {
    const slides: DocumentSection[] = Array.from({ length: 60 }, (_, index) => ({
      text: `Point ${index + 1}: keep the answer short.`,
      pageNumber: index + 1,
      headings: [`Slide ${index + 1}`],
    }));
    const chunks = chunkDocument({ kind: 'pptx', sections: slides });
    expectWellFormed(chunks, DEFAULT_CHUNKING);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThanOrEqual(6);
    for (const chunk of chunks) {
      expect(chunk.headings).toEqual([`Slide ${chunk.pageNumber}`]);
      expect(chunk.text.startsWith(`Slide ${chunk.pageNumber}\n\nPoint ${chunk.pageNumber}:`)).toBe(true);
    }
    expect(chunks[0]!.text).toContain('Point 1: keep the answer short.\n\nSlide 2\n\nPoint 2:');
    const points = chunks.flatMap((chunk) => [...chunk.text.matchAll(/Point (\d+):/g)].map((match) => Number(match[1])));
    expect(points).toEqual(slides.map((_, index) => index + 1));
  });

  it('prefixes the heading path, merges short sections under one top heading, keeps other tops apart', () => {
    const chunks = chunkDocument({
      kind: 'markdown',
      sections: [
        { text: 'Install the package with apt.\n\nThen start the service.', headings: ['Installation', 'On Linux'] },
        { text: 'Use the installer from the release page.', headings: ['Installation', 'On macOS'] },
        { text: 'Send a question to the chat endpoint.', headings: ['Usage'] },
        { text: 'Licensed under Apache-2.0.', headings: [] },
      ],
    });
    expect(chunks).toEqual([
      {
        ordinal: 0,
        text:
          'Installation > On Linux\n\nInstall the package with apt.\n\nThen start the service.\n\n' +
          'Installation > On macOS\n\nUse the installer from the release page.',
        headings: ['Installation', 'On Linux'],
        tokens: expect.any(Number),
      },
      { ordinal: 1, text: 'Usage\n\nSend a question to the chat endpoint.', headings: ['Usage'], tokens: expect.any(Number) },
      { ordinal: 2, text: 'Licensed under Apache-2.0.', tokens: expect.any(Number) },
    ]);
  });

  it('cuts an FAQ at its questions: one question heading with its answer per chunk, heading path kept', () => {
    const faq = (question: string, answer: string): DocumentSection => ({ text: answer, headings: ['Help', 'Returns', question] });
    const chunks = chunkDocument({
      kind: 'markdown',
      sections: [
        { text: 'Answers to common questions.', headings: ['Help'] },
        faq('Can I return an item?', 'Yes, within 30 days of delivery.'),
        faq('How long does a refund take?', 'Refunds show within 5–10 working days.'),
      ],
    });
    expect(chunks.map((chunk) => chunk.text)).toEqual([
      'Help\n\nAnswers to common questions.',
      'Help > Returns > Can I return an item?\n\nYes, within 30 days of delivery.',
      'Help > Returns > How long does a refund take?\n\nRefunds show within 5–10 working days.',
    ]);
  });

  it('cuts a plain-text FAQ before each question line, without carrying the previous answer over', () => {
    const text =
      'Shipping questions\n\nDo you ship abroad?\nWe ship to the EU and the United Kingdom.\n\n' +
      'How long does delivery take?\nTwo to five working days.\n\nIs there a tracking link?\nYes, by e-mail.';
    expect(chunkDocument(textDocument(text)).map((chunk) => chunk.text)).toEqual([
      'Shipping questions\n\nDo you ship abroad?\nWe ship to the EU and the United Kingdom.',
      'How long does delivery take?\nTwo to five working days.',
      'Is there a tracking link?\nYes, by e-mail.',
    ]);
  });

  it('starts every chunk of a long section with its heading path, counted in the budget', () => {
    const options: ChunkingOptions = { maxTokens: 100, overlapTokens: 15 };
    const headings = ['Operations', 'Backups and restores'];
    const chunks = chunkDocument({ kind: 'markdown', sections: [{ text: sentences('Backup', 40), headings }] }, options);
    expectWellFormed(chunks, options);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.headings).toEqual(headings);
      expect(chunk.text.startsWith('Operations > Backups and restores\n\nBackup sentence')).toBe(true);
    }
  });

  it('does not merge a big section into the chunk before it', () => {
    const chunks = chunkDocument({
      kind: 'markdown',
      sections: [
        { text: sentences('Intro', 3), headings: ['Guide', 'Intro'] },
        { text: sentences('Details', 40), headings: ['Guide', 'Details'] },
      ],
    });
    expect(chunks[0]!.text).not.toContain('Details');
    expect(chunks.slice(1).every((chunk) => chunk.text.startsWith('Guide > Details\n\n'))).toBe(true);
  });
});

describe('chunkDocument on hard text', () => {
  it('cuts a long unbroken token (base64, URL) at character boundaries as a last resort', () => {
    const bytes = Uint8Array.from({ length: 3750 }, (_, index) => (index * 7919 + 13) % 256);
    const blob = Buffer.from(bytes).toString('base64');
    const url = `https://example.com/${'very-long-path-segment/'.repeat(120)}end`;
    const text = `The attachment follows.\n\n${blob}\n\nAnd a link: ${url} ends the text.`;
    for (const options of [DEFAULT_CHUNKING, { ...SMALL, overlapTokens: 0 }]) {
      const chunks = chunkDocument(textDocument(text), options);
      expectWellFormed(chunks, options);
      expect(chunks.length).toBeGreaterThan(3);
      if (options.overlapTokens === 0) {
        expect(chunks.map((chunk) => chunk.text).join('')).toContain(blob);
        expect(withoutSpace(chunks.map((chunk) => chunk.text).join(''))).toBe(withoutSpace(text));
      }
    }
  });

  it('cuts a run of a single letter repeated thousands of times', () => {
    const chunks = chunkDocument(textDocument('a'.repeat(20_000)), { maxTokens: 200, overlapTokens: 0 });
    expectWellFormed(chunks, { maxTokens: 200, overlapTokens: 0 });
    expect(chunks.map((chunk) => chunk.text).join('')).toBe('a'.repeat(20_000));
  });

  it('chunks Chinese text without spaces within bounds, at sentence ends when it has them', () => {
    const phrases = [
      '我们的系统需要处理大量的文档',
      '检索增强生成能够提高回答的准确性',
      '每个文本块都不应超过令牌上限',
      '数据库保存了所有的向量和关键词',
    ];
    const withStops = Array.from({ length: 120 }, (_, index) => `${phrases[index % 4]}第${index}条。`).join('');
    const options: ChunkingOptions = { maxTokens: 100, overlapTokens: 15 };
    const chunks = chunkDocument(textDocument(withStops), options);
    expectWellFormed(chunks, options);
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.text.endsWith('。')).toBe(true);
    for (let index = 1; index < chunks.length; index++) {
      const previous = chunks[index - 1]!.text;
      const opening = chunks[index]!.text.slice(0, chunks[index]!.text.indexOf('。') + 1);
      expect(previous.endsWith(opening)).toBe(true);
    }

    const noStops = Array.from({ length: 200 }, (_, index) => phrases[index % 4]).join('');
    const plain = chunkDocument(textDocument(noStops), { ...options, overlapTokens: 0 });
    expectWellFormed(plain, options);
    expect(plain.map((chunk) => chunk.text).join('')).toBe(noStops);
  });

  it('never splits a surrogate pair or an emoji sequence', () => {
    const emoji = '😀👍🏽🚀👩‍🔬📚'.repeat(1_000);
    const options: ChunkingOptions = { maxTokens: 64, overlapTokens: 0 };
    const chunks = chunkDocument(textDocument(emoji), options);
    expectWellFormed(chunks, options);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(emoji);
    for (const chunk of chunks) {
      expect(chunk.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(chunk.text).not.toMatch(/^(?:\u{1F3FD}|\u200D)|\u200D$/u);
    }
  });

  it('returns no chunks for an empty document or one of only whitespace and punctuation', () => {
    expect(chunkDocument({ kind: 'txt', sections: [] })).toEqual([]);
    expect(chunkDocument({ kind: 'txt', sections: [{ text: '' }, { text: ' \n\n\t ' }] })).toEqual([]);
    expect(chunkDocument({ kind: 'markdown', sections: [{ text: '---\n\n* * *', headings: ['Rule'] }] })).toEqual([]);
  });

  it('refuses budgets it cannot honour', () => {
    expect(() => chunkDocument(textDocument('text'), { maxTokens: 8, overlapTokens: 0 })).toThrow(RangeError);
    expect(() => chunkDocument(textDocument('text'), { maxTokens: 100, overlapTokens: 50 })).toThrow(RangeError);
    expect(() => chunkDocument(textDocument('text'), { maxTokens: 100.5, overlapTokens: 5 })).toThrow(RangeError);
  });
});
