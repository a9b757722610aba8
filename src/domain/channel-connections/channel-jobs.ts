import type { NewJob } from '../../store/store.js';

/** One connection's poller (a mailbox, Telegram's update feed): a single long-running job per connection. */
export const POLL_CHANNEL_JOB = 'poll-channel';
/** The agent's answer to a message that came in through a channel, written off the vendor's request. */
export const ANSWER_CHANNEL_MESSAGE_JOB = 'answer-channel-message';

export interface PollJobPayload {
  connectionId: string;
}

export interface AnswerJobPayload {
  connectionId: string;
  conversationId: string;
  messageId: string;
}

/**
 * The poller of a connection. Its id is the connection's, so queuing it again while it runs does nothing;
 * it ends by itself once the connection is disabled or deleted, and a stopping worker hands it to another.
 * A failed pass is retried by the poller itself, so attempts count only crashes of the job.
 */
export const pollJob = (connection: { workspaceId: string; id: string }): NewJob => ({
  id: `job_poll_${connection.id}`,
  kind: POLL_CHANNEL_JOB,
  workspaceId: connection.workspaceId,
  payload: { connectionId: connection.id } satisfies PollJobPayload,
  maxAttempts: 100,
});

export const answerJob = (workspaceId: string, payload: AnswerJobPayload, maxAttempts: number): NewJob => ({
  id: `job_answer_${payload.messageId}`,
  kind: ANSWER_CHANNEL_MESSAGE_JOB,
  workspaceId,
  payload: { ...payload },
  maxAttempts,
});
