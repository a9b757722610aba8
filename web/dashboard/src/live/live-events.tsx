import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { conversationLiveCache } from '../queries/conversations';
import { datasourceLiveCache } from '../queries/datasources';
import { useWorkspaceId } from '../session/session';
import { LIVE_EVENT_TYPES, type LiveEvent } from './live-event';
import { LiveEventStream, type StreamState } from './live-event-stream';

type Listener = (event: LiveEvent) => void;

interface LiveEvents {
  state: StreamState;
  subscribe(listener: Listener): () => void;
}

const LiveEventsContext = createContext<LiveEvents | null>(null);

/**
 * The workspace's events, live, for every page of this browser tab over one connection: they keep the
 * query cache up to date, and components may listen too (`useLiveEvent`). A new workspace, a new stream.
 */
export function LiveEventsProvider({ children }: { children: ReactNode }) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const listeners = useRef(new Set<Listener>());

  useEffect(() => {
    const caches = [conversationLiveCache(queryClient, workspaceId), datasourceLiveCache(queryClient, workspaceId)];
    const stream = new LiveEventStream({
      types: LIVE_EVENT_TYPES,
      onEvent: (event) => {
        for (const handle of [...caches.map((cache) => cache.apply), ...listeners.current]) {
          // One handler's failure must not cost the others their event, nor the stream its connection.
          try {
            handle(event);
          } catch (error) {
            console.error(`Handling the live event ${event.type} failed`, error);
          }
        }
      },
      onReset: () => {
        for (const cache of caches) cache.refetch();
      },
      onState: setState,
    });
    stream.start();
    return () => stream.stop();
  }, [queryClient, workspaceId]);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => void listeners.current.delete(listener);
  }, []);
  const value = useMemo<LiveEvents>(() => ({ state, subscribe }), [state, subscribe]);
  return <LiveEventsContext.Provider value={value}>{children}</LiveEventsContext.Provider>;
}

function useLiveEvents(): LiveEvents {
  const live = useContext(LiveEventsContext);
  if (live === null) throw new Error('useLiveEvents outside <LiveEventsProvider>');
  return live;
}

/** Whether the page is following the workspace's events right now. */
export const useLiveState = (): StreamState => useLiveEvents().state;

/** Calls `listener` with each event as it arrives (the latest `listener` given). */
export function useLiveEvent(listener: Listener): void {
  const { subscribe } = useLiveEvents();
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => subscribe((event) => latest.current(event)), [subscribe]);
}
