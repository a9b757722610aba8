/** Deliveries: each event on its way to a webhook endpoint or to e-mail recipients, with its attempts. */
import type { NewJob } from './job-store.js';

export type DeliveryChannel = 'webhook' | 'email';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One event on its way to one destination: a webhook endpoint or a list of e-mail recipients. */
export interface NewDelivery {
  id: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  channel: DeliveryChannel;
  endpointId: string | null;
  recipients: string[] | null;
  /** The delivery this one sends again (replay). */
  replayOf: string | null;
  /** The event as sent, the same bytes on every attempt. */
  body: string;
  createdAt: string;
}

export interface DeliveryAttemptRecord {
  attempt: number;
  startedAt: string;
  durationMs: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out) or for e-mail. */
  statusCode: number | null;
  error: string | null;
  /** The start of what the receiver answered, to help whoever debugs it. */
  responseExcerpt: string | null;
}

export interface DeliveryRecord extends NewDelivery {
  status: DeliveryStatus;
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When the next retry is due, while one is scheduled. */
  nextAttemptAt: string | null;
  updatedAt: string;
  completedAt: string | null;
  /** Oldest first. */
  attempts: DeliveryAttemptRecord[];
}

/** Where a delivery stands after an attempt. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  nextAttemptAt: string | null;
  at: string;
}

/**
 * A workspace's deliveries: the log people read, and the state the sending jobs keep. A sending job knows
 * the workspace from its job record; the dispatcher writes deliveries of every workspace, each carrying its own.
 */
export interface DeliveryStore {
  /**
   * Writes the delivery and the job that sends it, in one transaction; false (and nothing written) when
   * a delivery with this id exists, which makes handing an event on twice harmless.
   */
  createWithJob(delivery: NewDelivery, job: NewJob): Promise<boolean>;
  /** The delivery if it exists in this workspace. */
  find(workspaceId: string, id: string): Promise<DeliveryRecord | undefined>;
  /**
   * How many of each webhook endpoint's tried deliveries (one attempt or more, not succeeded) are newer than
   * its newest succeeded one, in the log's order (newest first): how long it has been failing. Endpoints
   * with none are left out.
   */
  consecutiveFailures(workspaceId: string): Promise<Map<string, number>>;
  /** Newest first. */
  list(workspaceId: string, filter: { endpointId?: string; channel?: DeliveryChannel; limit: number }): Promise<DeliveryRecord[]>;
  /** Logs the attempt and the outcome, in one transaction; nothing when the delivery is not in the workspace. */
  recordAttempt(workspaceId: string, id: string, attempt: DeliveryAttemptRecord, outcome: DeliveryOutcome): Promise<void>;
  /** Updates status and next attempt time without an attempt (a retry was scheduled or given up). */
  settle(workspaceId: string, id: string, outcome: DeliveryOutcome, error?: string): Promise<void>;
}
