/** What the widget remembers about the visitor of one agent, across reloads and pages. */
export interface VisitorState {
  visitorToken?: string;
  conversationId?: string;
  visitorId?: string;
  /** The last event of the conversation's live stream seen: a reload resumes after it. */
  lastEventId?: string;
  /** The lead form was sent or put aside: it is not asked again. */
  leadDone?: boolean;
}

/**
 * localStorage under a key per agent (`parley:<agentId>`), so two agents' widgets on one site never
 * read each other's visitor. Storage may be off (private modes, sandboxed frames): then the state lives
 * as long as the page.
 */
export class VisitorStore {
  readonly #key: string;
  #memory: VisitorState = {};

  constructor(agentId: string) {
    this.#key = `parley:${agentId}`;
  }

  read(): VisitorState {
    try {
      const raw = localStorage.getItem(this.#key);
      return raw ? (JSON.parse(raw) as VisitorState) : { ...this.#memory };
    } catch {
      return { ...this.#memory };
    }
  }

  write(change: Partial<VisitorState>): VisitorState {
    const next = { ...this.read(), ...change };
    this.#memory = next;
    try {
      localStorage.setItem(this.#key, JSON.stringify(next));
    } catch {
      // Storage refused (quota, privacy mode): the page keeps it in memory.
    }
    return next;
  }
}
