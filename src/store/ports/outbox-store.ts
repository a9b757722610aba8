/** The outbox: domain events, written with the change they report and handed on afterwards. */

export interface NewOutboxEvent {
  id: string;
  workspaceId: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface OutboxEventRecord extends NewOutboxEvent {
  /** The event's place in its workspace's stream: later commits have higher numbers. */
  seq: number;
  createdAt: string;
  /** When a dispatcher handed it on; null while pending. */
  dispatchedAt: string | null;
  /** The API request whose change it reports; null when none did (a job's, a timer's). */
  requestId: string | null;
}

/**
 * Domain events written in the transaction of the change they report, so an event exists exactly when
 * its change committed; a dispatcher delivers them afterwards.
 *
 * Events are written by the other ports, each with its workspace id. The reads and writes here are the
 * dispatcher's, which hands on every workspace's events in one pass: workspace-free (`list` may narrow to
 * one workspace), with each event carrying its own.
 */
export interface OutboxStore {
  /** Oldest first. */
  list(filter: { workspaceId?: string; pending?: boolean; limit?: number }): Promise<OutboxEventRecord[]>;
  /** How many events wait to be dispatched, and when the oldest of them was written (null: none waits). */
  pending(): Promise<{ count: number; oldestCreatedAt: string | null }>;
  /** False when it was already dispatched (or does not exist). */
  markDispatched(id: string, at: string): Promise<boolean>;
  /** The workspace's events after stream position `seq`, in commit order. */
  after(workspaceId: string, seq: number, limit: number): Promise<OutboxEventRecord[]>;
  /** Where the workspace's event `eventId` stands in its stream; undefined when unknown (or pruned). */
  positionOf(workspaceId: string, eventId: string): Promise<number | undefined>;
  /** The workspace's latest events of `type`, newest first (samples of what a subscription receives). */
  latest(workspaceId: string, type: string, limit: number): Promise<OutboxEventRecord[]>;
  /** The position of the workspace's latest event; 0 before the first. */
  head(workspaceId: string): Promise<number>;
  /**
   * Calls `listener` with the workspace of each event any process commits, once listening started; with
   * null when some may have been missed (the connection was lost and restored). Only stores shared by
   * several processes offer it; the others' writers wake their own process.
   */
  watch?(listener: (workspaceId: string | null) => void): Promise<() => Promise<void>>;
  /** Deletes events dispatched before `cutoff` (their deliveries keep what was sent); the number deleted. */
  deleteDispatchedBefore(cutoff: string): Promise<number>;
}
