import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { asUnavailable } from '../database-outage.js';

const RECONNECT_MS = { first: 250, max: 10_000 };

/**
 * LISTEN on one channel over a connection of its own (a pooled one would be handed to other queries).
 * A lost connection is reopened with backoff; `onNotice(null)` then says notices may have been missed.
 */
export async function listenOn(
  connection: pg.ClientConfig,
  channel: string,
  onNotice: (payload: string | null) => void,
  name?: string,
): Promise<() => Promise<void>> {
  const stopping = new AbortController();
  let client: pg.Client | undefined;

  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client(name === undefined ? connection : { ...connection, application_name: name });
    next.on('notification', (notice) => {
      if (notice.channel === channel) onNotice(notice.payload ?? null);
    });
    // A lost connection emits 'error' (unheard, it would end the process) and then 'end', which reconnects.
    next.on('error', () => undefined);
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    // Only a connection that was listening is replaced when it ends.
    next.on('end', () => {
      if (!stopping.signal.aborted) void reconnect();
    });
    return next;
  };

  const reconnect = async (): Promise<void> => {
    for (let wait = RECONNECT_MS.first; !stopping.signal.aborted; wait = Math.min(wait * 2, RECONNECT_MS.max)) {
      await delay(wait, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopping.signal.aborted) return;
      try {
        const next = await connect();
        // Stopped while connecting: nobody listens any more.
        if (stopping.signal.aborted) return void (await next.end().catch(() => undefined));
        client = next;
        onNotice(null);
        return;
      } catch {
        // The server is still away: wait longer and try again.
      }
    }
  };

  client = await connect().catch((error: unknown) => {
    throw asUnavailable(error);
  });
  return async () => {
    stopping.abort();
    await client?.end().catch(() => undefined);
  };
}
