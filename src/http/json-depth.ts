/**
 * The deepest nesting of objects and arrays a JSON body may have. Parley's own shapes need a handful
 * of levels, free-form metadata a few more; thousands of levels only serve to exhaust the stack of
 * whatever walks the value later (validation, serialisation, the store's JSON).
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether `text` nests objects and arrays deeper than `limit`, found in one pass over the raw text
 * before it is parsed: a counter, no recursion, stopping at the first level too deep. Brackets inside
 * strings do not count. Malformed JSON is left for the parser to report.
 */
export function isNestedTooDeep(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
