import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';

/**
 * Pieces longer than this (UTF-16 units) are counted in windows. js-tiktoken's merge loop is quadratic in a
 * piece's length: 4,000 CJK characters without punctuation take seconds. Prose never has such pieces (the
 * longest word in a 2.3 MB English corpus is 40 characters), so this only bounds the cost of pathological input.
 */
const LONG_PIECE = 64;
/** Code points per window of a long piece. */
const WINDOW = 32;
/** Distinct pieces remembered; the cache is emptied when it reaches this, which bounds its memory. */
const CACHE_LIMIT = 100_000;

/** cl100k's pre-tokeniser: BPE never merges across these pieces, so a text's count is the sum of theirs. */
const piecePattern = new RegExp(cl100k.pat_str, 'gu');
const pieceCounts = new Map<string, number>();
let encoder: Tiktoken | undefined;

/**
 * Tokens in `text` under OpenAI's cl100k_base encoding, offline. Special-token strings such as
 * `<|endoftext|>` are counted as the plain text they are in a document.
 *
 * Exact, except that a piece longer than 64 characters (a run of letters without space or punctuation) is
 * counted as the sum of its 32-code-point windows plus one per window boundary: a slight over-count that keeps
 * the cost linear. Counts of repeated pieces (words) are cached, so counting prose is mostly map look-ups.
 */
export function countTokens(text: string): number {
  let total = 0;
  piecePattern.lastIndex = 0;
  for (let match = piecePattern.exec(text); match !== null; match = piecePattern.exec(text)) {
    total += pieceTokens(match[0]);
  }
  return total;
}

function pieceTokens(piece: string): number {
  if (piece.length > LONG_PIECE) return windowedTokens(piece);
  const cached = pieceCounts.get(piece);
  if (cached !== undefined) return cached;
  const tokens = encode(piece);
  if (pieceCounts.size >= CACHE_LIMIT) pieceCounts.clear();
  pieceCounts.set(piece, tokens);
  return tokens;
}

function windowedTokens(piece: string): number {
  const codePoints = Array.from(piece);
  let tokens = codePoints.length > WINDOW ? Math.ceil(codePoints.length / WINDOW) - 1 : 0;
  for (let start = 0; start < codePoints.length; start += WINDOW) {
    tokens += pieceTokens(codePoints.slice(start, start + WINDOW).join(''));
  }
  return tokens;
}

function encode(piece: string): number {
  return loadTokenCounter().encode(piece, [], []).length;
}

/**
 * Decodes the rank table, which takes about a third of a second (half a second on a busy machine): on first
 * use, once per process, unless a server start calls this first so that no question waits for it.
 */
export function loadTokenCounter(): Tiktoken {
  return (encoder ??= new Tiktoken(cl100k));
}
