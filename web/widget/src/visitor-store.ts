import type { SessionStore, VisitorState } from './chat-session.js';

/**
 * localStorage under a key per agent (`parley:<agentId>`), so two agents' widgets on one site never
 * read each other's visitor. Storage may be off (private modes, sandboxed frames): then the state lives
 * as long as the page.
 */
export class VisitorStore implements SessionStore {
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
