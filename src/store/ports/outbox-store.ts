/** The outbox: domain events, written with the change they report and handed on afterwards. */

export interface NewOutboxEvent {
  id: string;
  workspaceId: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface OutboxEventRecord extends NewOutboxEvent {
  createdAt: string;
  /** When a dispatcher handed it on; null while pending. */
  dispatchedAt: string | null;
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
  /** False when it was already dispatched (or does not exist). */
  markDispatched(id: string, at: string): Promise<boolean>;
  /** Deletes events dispatched before `cutoff` (their deliveries keep what was sent); the number deleted. */
  deleteDispatchedBefore(cutoff: string): Promise<number>;
}
