/**
 * What a connector may say of a failure to reach its vendor: never the error's message (a URL in it may hold a
 * token), only a network error's code or that no answer came in time, and the host it tried.
 */

/** ` (ECONNREFUSED)`, ` (no answer in time)`, or nothing: from the error or its cause (fetch's TypeError wraps the real one). */
export function networkReason(error: unknown): string {
  for (const each of [error, error instanceof Error ? error.cause : undefined]) {
    if (each instanceof Error && 'code' in each && typeof each.code === 'string' && /^[A-Z_]+$/.test(each.code)) return ` (${each.code})`;
    if (each instanceof Error && (each.name === 'TimeoutError' || /timed out/.test(each.message))) return ' (no answer in time)';
  }
  return '';
}

/** The host of a configured API address, for a message; never the path (Telegram's holds the token). */
export function hostOf(apiBaseUrl: string): string {
  try {
    return new URL(apiBaseUrl).host;
  } catch {
    return 'the configured address';
  }
}
