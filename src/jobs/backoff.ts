export interface BackoffPolicy {
  /** Delay before the first retry. */
  baseMs: number;
  /** No delay grows past this. */
  maxMs: number;
}

/**
 * Exponential backoff with "equal jitter": after attempt n the delay is between half and all of
 * base·2^(n-1), capped, so retries of many failed jobs do not arrive in lockstep.
 */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}
