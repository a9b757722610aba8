/** Types a browser may show as they are: none of them runs script on the API's origin. */
const SHOWN_AS_IS = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'text/plain',
  'text/csv',
]);

/** `name` as a quoted-string of printable ASCII (the fallback) and RFC 5987's `filename*` for the rest. */
const dispositionOf = (kind: 'inline' | 'attachment', name: string): string => {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
};

/**
 * The headers a kept attachment is served with. The sender chose its type: only types that cannot run
 * script are sent as what they claim (SVG and HTML can, so they are downloads like everything else), and
 * nosniff keeps a browser from guessing another.
 */
export function attachmentHeaders(file: { name: string; mimeType: string; size: number }): Record<string, string> {
  const shown = SHOWN_AS_IS.has(file.mimeType);
  return {
    'content-type': shown ? (file.mimeType.startsWith('text/') ? `${file.mimeType}; charset=utf-8` : file.mimeType) : 'application/octet-stream',
    'content-disposition': dispositionOf(shown ? 'inline' : 'attachment', file.name),
    'content-length': String(file.size),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  };
}
