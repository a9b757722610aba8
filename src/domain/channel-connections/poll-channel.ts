import { setTimeout as delay } from 'node:timers/promises';
import { ChannelError } from '../../channels/connector.js';
import type { JobContext, JobHandler } from '../../jobs/job-runner.js';
import type { JobRecord, Store } from '../../store/store.js';
import { now } from '../ids.js';
import type { ChannelConnectionService } from './channel-connections.js';
import type { ChannelInbox } from './channel-inbox.js';
import type { PollJobPayload } from './channel-jobs.js';
import type { Signals } from '../signals.js';

export interface PollOptions {
  /** How long one pass waits for news (IMAP IDLE, Telegram's long poll) before it looks at the connection again. */
  waitMs: number;
  /** The pause after a failed pass (the mailbox is away, the token was refused). */
  pauseAfterFailureMs: number;
}

/**
 * A connection's poller: pass after pass, what arrived is stored and only then the cursor moves on, so a
 * crash between the two delivers the same messages again, which the intake stores once. It reads the
 * connection before each pass: a change of settings applies at the next one, and a disabled or deleted
 * connection ends the job. A failed pass is the connection's last error, and the poller carries on.
 */
export class PollChannelHandler implements JobHandler {
  constructor(
    private readonly store: Store,
    private readonly connections: ChannelConnectionService,
    private readonly inbox: ChannelInbox,
    private readonly signals: Signals,
    private readonly options: PollOptions,
  ) {}

  async run(job: JobRecord, { signal }: JobContext): Promise<void> {
    const { connectionId } = job.payload as unknown as PollJobPayload;
    const { workspaceId } = job;
    if (workspaceId === null) return;
    // A change made in this process ends the pass under way; one made elsewhere is read at the next pass.
    let pass = new AbortController();
    const stopHearing = this.signals.channelConnectionChanged.subscribe((changed) => {
      if (changed === connectionId) pass.abort();
    });
    try {
      await this.passes(workspaceId, connectionId, signal, () => {
        pass = new AbortController();
        return AbortSignal.any([signal, pass.signal]);
      });
    } finally {
      stopHearing();
    }
  }

  private async passes(workspaceId: string, connectionId: string, signal: AbortSignal, nextPass: () => AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      const passSignal = nextPass();
      const record = await this.store.channelConnections.find(workspaceId, connectionId);
      if (record === undefined || !record.enabled) return;
      const connector = this.connections.connectorOf(record);
      const connection = this.connections.open(record);
      if (connector.poll === undefined || !connector.pulls(connection)) return;
      try {
        const { messages, cursor } = await connector.poll(connection, record.cursor, this.options.waitMs, passSignal);
        await this.inbox.accept(record, messages);
        if (cursor !== record.cursor) await this.store.channelConnections.saveCursor(workspaceId, connectionId, cursor);
        if (record.lastError !== null) await this.store.channelConnections.record(workspaceId, connectionId, { error: null, at: now() });
      } catch (error) {
        signal.throwIfAborted();
        if (passSignal.aborted) continue;
        const message = error instanceof ChannelError ? error.message : 'Receiving failed; Parley tries again shortly';
        await this.store.channelConnections.record(workspaceId, connectionId, { error: message, at: now() });
        await delay(this.options.pauseAfterFailureMs, undefined, { signal });
      }
    }
  }
}
