/** The longest datasource name kept, in characters: the API's `fileName` and `name` limit. */
export const MAX_NAME_LENGTH = 500;

/** What a name becomes when nothing printable is left of any candidate. */
export const FALLBACK_NAME = 'upload';

/**
 * Terminal escape sequences, removed whole so no `[31m` is left behind: CSI (ESC [ or its C1 form),
 * OSC up to its terminator (BEL, ESC \ or ST), and the two-character ESC forms.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ESCAPE_SEQUENCE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;

/** Line breaks and tabs separate words: they become spaces rather than gluing words together. */
const BREAKING_CONTROL = /[\t\n\v\f\r\x85]/g;

/**
 * Controls (C0, DEL, C1, NUL), invisible format characters (bidi overrides and isolates, zero-width
 * space and joiners, BOM, soft hyphen) and lone surrogates: nothing a person sees, but enough to
 * make a name lie about itself in a log, a terminal or a file list.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/gu;

/** An extension worth keeping when a long name is cut: `.pdf`, `.docx`, `.md`. */
const EXTENSION = /\.[\p{L}\p{N}]{1,16}$/u;

/** `raw` made fit to store and show, or '' when nothing printable is left. */
function clean(raw: string): string {
  const text = raw.replace(ESCAPE_SEQUENCE, '').replace(BREAKING_CONTROL, ' ').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
  // Counted in code points, as the API's maxLength is, so a cut never splits a surrogate pair.
  const characters = [...text];
  if (characters.length <= MAX_NAME_LENGTH) return text;
  const extension = [...(EXTENSION.exec(text)?.[0] ?? '')];
  const stem = characters
    .slice(0, MAX_NAME_LENGTH - extension.length)
    .join('')
    .trimEnd();
  return stem + extension.join('');
}

/**
 * The name a datasource is stored under: the first candidate with something printable left once
 * escape sequences, control and invisible characters are stripped and whitespace is collapsed,
 * cut to {@link MAX_NAME_LENGTH} characters keeping its extension; {@link FALLBACK_NAME} when none has.
 * Uploaded file names come from the client's `Content-Disposition` and end up in logs, exports and
 * the dashboard, so they get the same rule as names typed into JSON.
 */
export function datasourceName(...candidates: ReadonlyArray<string | undefined>): string {
  for (const candidate of candidates) {
    const name = candidate === undefined ? '' : clean(candidate);
    if (name !== '') return name;
  }
  return FALLBACK_NAME;
}
