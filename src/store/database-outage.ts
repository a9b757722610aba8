import { ParleyError } from '../errors.js';

/**
 * PostgreSQL: SQLSTATE class 08 (connection exception), 53300 (too many connections), 57P01–57P03 (the
 * server is shutting down, crashed, or not yet accepting connections).
 */
const UNREACHABLE_SQLSTATE = /^(08[0-9A-Z]{3}|53300|57P0[123])$/;
/** The socket to the server was refused, reset or never found. */
const UNREACHABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLite: the file cannot be opened or read, or another process held its lock past the busy timeout. */
const UNREACHABLE_SQLITE = /^SQLITE_(CANTOPEN|IOERR|BUSY)(_|$)/;
/** pg's own errors for a lost connection or a pool that waited too long for one carry no code, only these words. */
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `error` says the database cannot be reached now (gone, restarting, refusing or resetting
 * connections), as opposed to a query it refused: a constraint, a syntax error, a bug.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_SOCKET.has(code) || UNREACHABLE_SQLITE.test(code))) return true;
  return UNREACHABLE_MESSAGE.test(error.message) || (error.cause !== undefined && isDatabaseUnreachable(error.cause));
}

/**
 * The one place a database outage becomes `UNAVAILABLE` (503, retryable): routes answer it, the job runner
 * retries it, and the driver's text stays in the log (the cause). Any other error is returned as it is.
 */
export function asUnavailable(error: unknown): unknown {
  if (!isDatabaseUnreachable(error)) return error;
  return new ParleyError('UNAVAILABLE', 'The database cannot be reached; try again shortly', { cause: error });
}

/** The longest a polling loop waits between tries while the database stays away. */
const OUTAGE_POLL_MAX_MS = 10_000;

/**
 * How long a loop that polls the store waits after `failures` passes in a row failed: its usual `pollMs`,
 * doubled per failure up to 10 s (never less than `pollMs`), so an outage costs a log line every 10 s rather than several a second,
 * and the database's return is noticed within 10 s.
 */
export function pollDelayMs(pollMs: number, failures: number): number {
  return Math.max(pollMs, Math.min(OUTAGE_POLL_MAX_MS, pollMs * 2 ** failures));
}
