import { EventHub, type EventSubscription } from '../events/event-hub.js';
import { EVENT_TYPES, type EventEnvelope } from '../contract/events.js';
import { envelopeOf } from '../events/event-types.js';
import type { Store } from '../store/store.js';
import { invalid } from '../errors.js';
import type { WorkspaceCaller } from './callers.js';

/** The events of a conversation its visitor hears of. */
export type VisitorConcern = EventEnvelope<'message.created' | 'conversation.updated'>;

/** A visitor hears of new messages (not the team's private notes) and of status or AI-switch changes; assignments and reads are the team's. */
const concernsVisitor = (event: EventEnvelope): event is VisitorConcern =>
  (event.type === 'message.created' && event.data.message.private !== true) ||
  (event.type === 'conversation.updated' && event.data.changed.some((field) => field === 'status' || field === 'isAiEnabled'));

/** Events read per query. */
const BATCH = 500;

export interface StreamRequest {
  /** Resume right after this event (`Last-Event-ID` or `?since=`). */
  after?: string;
  /** Only these event types; all without. */
  types?: readonly string[];
}

export interface OpenedStream extends EventSubscription {
  /**
   * False when `after` named no event still kept (unknown, or older than the outbox keeps: a week after it
   * was handed on): the stream starts from now.
   */
  resumed: boolean;
}

/**
 * The members' and API clients' live view of a workspace: its outbox events, in commit order, from a
 * point on. Streams on this process share one {@link EventHub}; `wake` is the in-process signal of a write.
 */
export class EventStreamService {
  readonly #hub: EventHub;
  #started: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    onError: (error: unknown) => void,
  ) {
    // Without announcements from the store, only the poll sees other processes' writes: read often.
    const pollMs = store.outbox.watch === undefined ? 1_000 : 30_000;
    this.#hub = new EventHub(store.outbox, { pollMs, batchSize: BATCH, onError });
  }

  /** This process wrote an event for the workspace. */
  wake(workspaceId: string): void {
    this.#hub.wake(workspaceId);
  }

  get openStreams(): number {
    return this.#hub.subscriberCount;
  }

  /** Follows the caller's workspace's events; `deliver` gets each once, in order, starting with the backlog. */
  async open(caller: WorkspaceCaller, request: StreamRequest, deliver: (events: EventEnvelope[]) => void): Promise<OpenedStream> {
    const types = request.types === undefined ? undefined : new Set(request.types);
    const unknown = [...(types ?? [])].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
    if (unknown.length > 0) {
      throw invalid(`Unknown event types: ${unknown.join(', ')}`, [{ field: 'types', message: `each must be one of ${EVENT_TYPES.join(', ')}` }]);
    }
    return this.follow(caller.workspaceId, request.after, (event): event is EventEnvelope => types === undefined || types.has(event.type), deliver);
  }

  /**
   * Follows one conversation: its messages and its status or AI-switch changes (what its visitor sees);
   * `after` resumes after an event of it, as for the workspace stream.
   */
  async openConversation(
    workspaceId: string,
    conversationId: string,
    after: string | undefined,
    deliver: (events: VisitorConcern[]) => void,
  ): Promise<OpenedStream> {
    return this.follow(
      workspaceId,
      after,
      (event): event is VisitorConcern => concernsVisitor(event) && event.data.conversationId === conversationId,
      deliver,
    );
  }

  /** The workspace's events after the event `after` (from now without one, or when it is unknown) that `wanted` keeps. */
  private async follow<Kept extends EventEnvelope>(
    workspaceId: string,
    after: string | undefined,
    wanted: (event: EventEnvelope) => event is Kept,
    deliver: (events: Kept[]) => void,
  ): Promise<OpenedStream> {
    // A start that failed (the store was away) is not kept: the next stream tries again.
    await (this.#started ??= this.#hub.start().catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    }));
    const position = after === undefined ? undefined : await this.store.outbox.positionOf(workspaceId, after);
    const subscription = await this.#hub.subscribe(workspaceId, position, (events) => {
      const kept = events.map(envelopeOf).filter(wanted);
      if (kept.length > 0) deliver(kept);
    });
    return { close: () => subscription.close(), resumed: after === undefined || position !== undefined };
  }

  async stop(): Promise<void> {
    if (this.#started !== undefined) await this.#hub.stop();
  }
}
