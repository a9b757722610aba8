import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import type { InboundChannelMessage, PollResult } from '../connector.js';
import { parseInboundMail } from './inbound-mail.js';

export interface ImapMailboxOptions {
  client: ImapFlowOptions;
  mailbox: string;
  connectionId: string;
  maxAttachmentBytes: number;
  /** How often a server without IDLE is asked again while a poll waits. */
  fallbackIntervalMs: number;
  /** Most mails fetched in one poll: a mailbox that filled up while Parley was away comes in over several. */
  batchSize: number;
  /** Told of each mail that is passed over (no conversation, or unreadable), with why. */
  onSkipped?: (reason: string) => void;
}

/** Where a mailbox was read up to: UIDs only mean something within one UIDVALIDITY. */
interface Cursor {
  uidValidity: string;
  lastUid: number;
}

const parseCursor = (cursor: string | null): Cursor | null => {
  const match = cursor === null ? null : /^(\d+):(\d+)$/.exec(cursor);
  return match?.[1] && match[2] ? { uidValidity: match[1], lastUid: Number(match[2]) } : null;
};

const uidValidityOf = (client: ImapFlow): string | null => (client.mailbox === false ? null : client.mailbox.uidValidity.toString());

const formatCursor = (cursor: Cursor): string => `${cursor.uidValidity}:${cursor.lastUid}`;

/**
 * One connection's mailbox, read over a session kept open between polls (a login per poll would be slow
 * and rude to the server). A session the server or the network closed is opened again on the next poll.
 */
export class ImapMailbox {
  #client: ImapFlow | null = null;
  /** Polls of one connection run one after another: they share the session and its selected mailbox. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ImapMailboxOptions) {}

  /**
   * What arrived after `cursor`, waiting up to `waitMs` (IDLE, or asking again on a server without it).
   * Without a cursor, or when the mailbox's UIDVALIDITY changed (it was recreated, its UIDs renumbered),
   * reading starts at the mailbox's UIDNEXT: a mailbox connected for the first time is not imported with
   * its history, and a renumbered one is not imported twice; that new start is answered at once, without
   * waiting, so it is saved. Mail that is not a conversation advances the cursor without a message.
   */
  poll(cursor: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult> {
    const run = this.#queue.then(() => this.#pollWithReconnect(cursor, waitMs, signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client === null) return;
    await client.logout().catch(() => client.close());
  }

  async #pollWithReconnect(cursor: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult> {
    signal.throwIfAborted();
    const reused = this.#client?.usable === true;
    try {
      return await this.#pollOnce(await this.#session(), cursor, waitMs, signal);
    } catch (error) {
      await this.close();
      // A kept session may have been dropped by the server while Parley was away: one fresh try.
      if (!reused || signal.aborted) throw error;
      return this.#pollOnce(await this.#session(), cursor, waitMs, signal);
    }
  }

  async #session(): Promise<ImapFlow> {
    if (this.#client?.usable && this.#client.mailbox !== false) return this.#client;
    await this.close();
    const client = new ImapFlow({ ...this.options.client, logger: false, disableAutoIdle: true });
    // Without a listener an 'error' event would throw; the next poll sees the session unusable and reconnects.
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.mailboxOpen(this.options.mailbox);
    } catch (error) {
      client.close();
      throw error;
    }
    this.#client = client;
    return client;
  }

  async #pollOnce(client: ImapFlow, cursorText: string | null, waitMs: number, signal: AbortSignal): Promise<PollResult> {
    const deadline = Date.now() + waitMs;
    let changed = false;
    let wake: (() => void) | null = null;
    const onChange = () => {
      changed = true;
      wake?.();
    };
    client.on('exists', onChange);
    client.on('close', onChange);
    try {
      let cursor = parseCursor(cursorText);
      // A new start is answered at once: saved before any wait, it holds even if Parley stops during the wait,
      // so mail that arrives meanwhile is read by the next pass instead of being taken for history.
      if (cursor?.uidValidity !== uidValidityOf(client)) return { messages: [], cursor: formatCursor(await this.#end(client)) };
      for (;;) {
        changed = false;
        const { messages, lastUid } = await this.#fetchAfter(client, cursor.lastUid);
        const advanced = lastUid > cursor.lastUid;
        cursor = { ...cursor, lastUid };
        const remaining = deadline - Date.now();
        if (advanced || signal.aborted || !client.usable) return { messages, cursor: formatCursor(cursor) };
        // The server tells of mail other sessions added at the end of a command: a SEARCH may miss what it then reports.
        if (changed) continue;
        if (remaining <= 0) return { messages, cursor: formatCursor(cursor) };
        await this.#waitForChange(client, remaining, signal, (resolve) => (wake = resolve));
        wake = null;
        if (!client.usable) return { messages: [], cursor: formatCursor(cursor) };
        // The mailbox may have been replaced while we waited (imapflow selects it again and reports the new one).
        if (uidValidityOf(client) !== cursor.uidValidity) return { messages: [], cursor: formatCursor(await this.#end(client)) };
      }
    } finally {
      client.off('exists', onChange);
      client.off('close', onChange);
    }
  }

  /**
   * A cursor at the mailbox's end. UIDNEXT is as SELECT reported it, and a kept session is not told a new
   * one: after a NOOP (which reports mail other sessions added) the newest mail's UID says where the end is now.
   */
  async #end(client: ImapFlow): Promise<Cursor> {
    await client.noop();
    const mailbox = client.mailbox;
    if (mailbox === false) throw new Error('The mailbox is no longer selected');
    const newest = mailbox.exists > 0 ? await client.fetchOne('*', { uid: true }) : false;
    return { uidValidity: mailbox.uidValidity.toString(), lastUid: Math.max(0, mailbox.uidNext - 1, newest ? newest.uid : 0) };
  }

  async #fetchAfter(client: ImapFlow, lastUid: number): Promise<{ messages: InboundChannelMessage[]; lastUid: number }> {
    // `n:*` always matches the newest mail, even when its UID is below n: hence the filter.
    const found = await client.search({ uid: `${lastUid + 1}:*` }, { uid: true });
    const uids = (found || [])
      .filter((uid) => uid > lastUid)
      .sort((a, b) => a - b)
      .slice(0, this.options.batchSize);
    if (uids.length === 0) return { messages: [], lastUid };
    const fetched = await client.fetchAll(uids.join(','), { source: true, uid: true }, { uid: true });
    fetched.sort((a, b) => a.uid - b.uid);
    const messages: InboundChannelMessage[] = [];
    for (const mail of fetched) {
      if (!mail.source) continue;
      // A mail that cannot be parsed is passed over: failing the poll would stop the mailbox at it for good.
      const parsed = await parseInboundMail(mail.source, {
        maxAttachmentBytes: this.options.maxAttachmentBytes,
        ownConnectionId: this.options.connectionId,
      }).catch((error: unknown) => ({ ignored: `unreadable (${error instanceof Error ? error.message : String(error)})` }));
      if ('message' in parsed) messages.push(parsed.message);
      else this.options.onSkipped?.(`UID ${mail.uid}: ${parsed.ignored}`);
    }
    await client.messageFlagsAdd(uids.join(','), ['\\Seen'], { uid: true });
    return { messages, lastUid: uids[uids.length - 1] ?? lastUid };
  }

  /**
   * Waits for the server to report new mail, `remainingMs` to pass or `signal` to abort. IDLE stays on after
   * the wait: the next command (the next poll's SEARCH) ends it, and meanwhile the server keeps the session.
   */
  async #waitForChange(client: ImapFlow, remainingMs: number, signal: AbortSignal, setWake: (resolve: () => void) => void): Promise<void> {
    const idles = client.capabilities.has('IDLE');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, idles ? remainingMs : Math.min(remainingMs, this.options.fallbackIntervalMs));
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done);
      setWake(done);
      // A failed IDLE (a server that refuses it) ends the wait early; the loop then asks again.
      if (idles) client.idle().then((ok) => ok === false && done(), done);
    });
  }
}
