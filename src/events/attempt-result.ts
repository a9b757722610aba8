/** How one try to hand an event over went. */
export interface AttemptResult {
  ok: boolean;
  /** The receiver's HTTP status; null when none came back, and for e-mail. */
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/** Destinations refused for good (a blocked address): retrying cannot help. */
export class UndeliverableError extends Error {
  override readonly name = 'UndeliverableError';
}
