import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JobRecord, Store } from '../../store/store.js';
import type { AgentAnswerService } from '../agent-answers.js';
import type { ChannelConnectionService } from './channel-connections.js';
import type { AnswerJobPayload } from './channel-jobs.js';

/** Telegram shows "typing…" for five seconds: said again a little sooner while the answer is written. */
const TYPING_EVERY_MS = 4_000;

/**
 * The agent's answer to a message that came in through a channel. Stored like any answer; its
 * `message.created` event is what sends it out (see the outbox dispatcher). Meanwhile the vendor shows
 * that the agent is writing, where it can.
 */
export class AnswerChannelMessageHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly connections: ChannelConnectionService,
    private readonly answers: AgentAnswerService,
  ) {}

  async run(job: JobRecord, { signal }: JobContext): Promise<void> {
    const { connectionId, conversationId, messageId } = job.payload as unknown as AnswerJobPayload;
    const { workspaceId } = job;
    if (workspaceId === null) return;
    const record = await this.store.channelConnections.find(workspaceId, connectionId);
    const conversation = await this.store.conversations.find(workspaceId, conversationId);
    const typing = new AbortController();
    if (record !== undefined && conversation?.channelExternalId) {
      const connector = this.connections.connectorOf(record);
      const connection = this.connections.open(record);
      const threadId = conversation.channelExternalId;
      const sayTyping = () => void connector.typing?.(connection, threadId, AbortSignal.any([signal, typing.signal])).catch(() => undefined);
      sayTyping();
      const timer = setInterval(sayTyping, TYPING_EVERY_MS);
      typing.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    }
    try {
      await this.answers.answerStored(workspaceId, conversationId, messageId, signal);
    } finally {
      typing.abort();
    }
  }
}
