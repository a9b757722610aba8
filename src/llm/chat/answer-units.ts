import type { LabelledPassage } from '../prompt/context-block.js';
import type { Term } from '../../text/extract-terms.js';
import { extractTerms } from '../../text/extract-terms.js';
import { isQuestionLine } from '../../text/question-line.js';
import { splitSentences } from '../../text/split-sentences.js';

/** What a unit of a passage is; only sentences, list items and table rows are ever quoted. */
export type AnswerUnitKind = 'sentence' | 'item' | 'row';

/** A quotable piece of a passage, with the heading it sits under. */
export interface AnswerUnit {
  passage: LabelledPassage;
  /** 0 for the passage the prompt lists first. */
  passageRank: number;
  /** Position among the passage's quotable units. */
  index: number;
  /** Units under the same heading of one passage share a section number. */
  section: number;
  kind: AnswerUnitKind;
  text: string;
  terms: Term[];
  keys: Set<string>;
  /** Terms of the heading (or heading path) the unit sits under; empty when none. */
  heading: Term[];
  /** The heading is a question ("How long does a refund take?"): the section is its answer. */
  answersHeading: boolean;
}

const BULLET = /^\s*(?:[-*•▪◦‣]|\d{1,3}[.)])\s+/;
const TABLE_ROW = /\s\|\s|\t/;
const END_PUNCTUATION = /[.!?:;…]["')\]”’]*$/u;
/** A line no longer than this without end punctuation reads as a heading or a label, not as text. */
const HEADING_WORDS = 12;

/**
 * The quotable units of the passages, in prompt order. A passage's opening heading path (as chunking puts
 * it: "Returns > How long does a refund take?") and any line that reads as a heading (short, no end
 * punctuation) or as an FAQ question (a short line ending with "?" with text after it) are not units:
 * they are the heading of the units beneath them, so a question that matches a heading finds its answer.
 */
export function answerUnits(passages: readonly LabelledPassage[]): AnswerUnit[] {
  return passages.flatMap((passage, passageRank) => passageUnits(passage, passageRank));
}

function passageUnits(passage: LabelledPassage, passageRank: number): AnswerUnit[] {
  const units: AnswerUnit[] = [];
  const lines = passage.text.replace(/\r\n?/g, '\n').split('\n');
  let heading: Term[] = [];
  let answersHeading = false;
  let section = 0;
  let paragraph: string[] = [];

  const flush = () => {
    const text = paragraph.join('\n').trim();
    paragraph = [];
    if (text === '') return;
    for (const sentence of splitSentences(text)) {
      const kind: AnswerUnitKind = BULLET.test(sentence.text) ? 'item' : TABLE_ROW.test(sentence.text) ? 'row' : 'sentence';
      const terms = extractTerms(sentence.text);
      units.push({
        passage,
        passageRank,
        index: units.length,
        section,
        kind,
        text: sentence.text,
        terms,
        keys: new Set(terms.map((term) => term.key)),
        heading,
        answersHeading,
      });
    }
  };

  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '') {
      flush();
      return;
    }
    const followedByText = lines.slice(i + 1).some((next) => next.trim() !== '');
    const isHeading = followedByText && paragraph.length === 0 && (isQuestionLine(trimmed) || isLabelLine(trimmed) || isHeadingPath(trimmed));
    if (!isHeading) {
      paragraph.push(line);
      return;
    }
    flush();
    const last = trimmed.split(' > ').at(-1) ?? trimmed;
    heading = extractTerms(trimmed);
    answersHeading = isQuestionLine(last);
    section += 1;
  });
  flush();
  return units;
}

/** A short line without end punctuation that is no list item or table row: a heading or a label. */
function isLabelLine(line: string): boolean {
  return !END_PUNCTUATION.test(line) && !BULLET.test(line) && !TABLE_ROW.test(line) && line.split(/\s+/).length <= HEADING_WORDS;
}

/** The heading path chunking opens a chunk with: "Guide > Install > On Linux?". */
function isHeadingPath(line: string): boolean {
  const last = line.split(' > ').at(-1) ?? '';
  return line.includes(' > ') && (isQuestionLine(last) || !END_PUNCTUATION.test(last));
}
