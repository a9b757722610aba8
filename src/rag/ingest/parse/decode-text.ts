import chardet from 'chardet';
import iconv from 'iconv-lite';

export interface DecodedText {
  text: string;
  /** The encoding the bytes were read as, e.g. "utf-8", "utf-16le", "windows-1252". */
  encoding: string;
}

export interface DecodeOptions {
  /** A charset the document declares about itself (an HTML <meta charset>); used only when the bytes are not UTF-8. */
  declaredCharset?: string;
  /** The bytes are the head of a longer file, so a multi-byte character may be cut at the end. */
  partial?: boolean;
}

const BOMS: ReadonlyArray<{ bytes: readonly number[]; encoding: string }> = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  // UTF-32 before UTF-16: the UTF-32LE BOM begins with the UTF-16LE one.
  { bytes: [0xff, 0xfe, 0x00, 0x00], encoding: 'utf-32le' },
  { bytes: [0x00, 0x00, 0xfe, 0xff], encoding: 'utf-32be' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

/** Legacy labels that browsers (WHATWG Encoding) read as their Windows superset, so "€" and curly quotes survive. */
const SUPERSETS: Readonly<Record<string, string>> = {
  'iso-8859-1': 'windows-1252',
  'iso-8859-9': 'windows-1254',
  'iso-8859-11': 'windows-874',
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
};

/**
 * Reads text in whatever encoding it came in: a byte-order mark decides first, then valid UTF-8,
 * then the charset the document declares, then chardet's best guess, then Windows-1252 (which decodes any byte).
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const bom = BOMS.find((candidate) => candidate.bytes.every((byte, i) => bytes[i] === byte));
  if (bom) return { text: decodeAs(bytes.subarray(bom.bytes.length), bom.encoding), encoding: bom.encoding };
  const utf8 = decodeUtf8(bytes, options.partial ?? false);
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  const encoding = supportedEncoding(options.declaredCharset) ?? guessEncoding(bytes);
  return { text: decodeAs(bytes, encoding), encoding };
}

function decodeUtf8(bytes: Uint8Array, partial: boolean): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
  } catch {
    return undefined;
  }
}

// A sample is enough to tell an encoding, and chardet's time grows with its input.
const GUESS_SAMPLE_BYTES = 256 * 1024;

function guessEncoding(bytes: Uint8Array): string {
  for (const match of chardet.analyse(bytes.subarray(0, GUESS_SAMPLE_BYTES))) {
    const encoding = supportedEncoding(match.name);
    if (encoding && encoding !== 'utf-8') return encoding;
  }
  return 'windows-1252';
}

function supportedEncoding(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const lower = label.trim().toLowerCase();
  const encoding = SUPERSETS[lower] ?? lower;
  return iconv.encodingExists(encoding) ? encoding : undefined;
}

function decodeAs(bytes: Uint8Array, encoding: string): string {
  if (encoding === 'utf-8') return new TextDecoder('utf-8').decode(bytes);
  return iconv.decode(bytes, encoding, { stripBOM: true });
}
