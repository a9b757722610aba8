import { CallFailed, type AnswerEnd, type ConversationStatus, type LiveMessage, type ParleyClient, type Rating } from './parley-client.js';

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

/** A visitor's details, as the page (`Parley.identify`) or the lead form gives them. */
export interface Contact {
  name?: string;
  email?: string;
  phone?: string;
}

/** Details given before there was a conversation to store them in; `form`: the visitor typed them. */
export interface PendingContact {
  contact: Contact;
  form: boolean;
}

/** What the session tells the views it drives. */
export interface SessionListener {
  /** A stored message, seen for the first time: read back on restore (`live` false), or live. */
  message(message: LiveMessage, live: boolean): void;
  /** The status or the agent's switch changed; `resolved`: the conversation was resolved just now. */
  status(resolved: boolean): void;
}

export type SessionClient = Pick<ParleyClient, 'ask' | 'transcript' | 'follow' | 'setStatus' | 'rate' | 'identify'>;
/** Where the session keeps what it remembers (the widget's VisitorStore: localStorage, else memory). */
export interface SessionStore {
  read(): VisitorState;
  write(change: Partial<VisitorState>): VisitorState;
}

/**
 * One visitor's exchange with an agent, without the page: the conversation remembered across reloads, the
 * question being answered, the live stream and its catch-up, and which messages were shown already (a
 * message may come twice: read back and live, or live and as the answer this page is streaming).
 */
export class ChatSession {
  readonly #client: SessionClient;
  readonly #store: SessionStore;
  readonly #listener: SessionListener;
  readonly #known = new Set<string>();
  /** Agent messages that came live while this page streamed an answer: shown, unless they are that answer, once it ends. */
  #held: LiveMessage[] = [];
  #asking = false;
  #status: ConversationStatus = 'UNRESOLVED';
  #aiEnabled = true;
  #following: AbortController | null = null;
  #pendingContact: PendingContact | null = null;

  constructor(client: SessionClient, store: SessionStore, listener: SessionListener) {
    this.#client = client;
    this.#store = store;
    this.#listener = listener;
  }

  get asking(): boolean {
    return this.#asking;
  }

  /** The visitor's token once there is a conversation to act on (rate, ask for a person, store details). */
  get token(): string | null {
    const state = this.#store.read();
    return state.conversationId && state.visitorToken ? state.visitorToken : null;
  }

  /** A person can be asked for: there is a conversation, the agent answers in it, and nobody was asked yet. */
  get personAskable(): boolean {
    return this.token !== null && this.#aiEnabled && this.#status !== 'HUMAN_REQUESTED';
  }

  /** The lead form was sent or put aside: it is not asked again. */
  get leadDone(): boolean {
    return this.#store.read().leadDone === true;
  }

  putLeadAside(): void {
    this.#store.write({ leadDone: true });
  }

  /** Forgets the conversation (the visitor stays the same): what comes next starts another. */
  reset(): void {
    this.#following?.abort();
    this.#following = null;
    this.#store.write({ conversationId: undefined, lastEventId: undefined });
    this.#status = 'UNRESOLVED';
    this.#aiEnabled = true;
    this.#known.clear();
    this.#held = [];
  }

  /** Reads the remembered conversation back, every message of it, and follows it live. */
  async restore(): Promise<void> {
    const state = this.#store.read();
    if (!state.visitorToken || !state.conversationId) return;
    try {
      const transcript = await this.#client.transcript(state.visitorToken);
      if (transcript.conversationId !== state.conversationId) return;
      this.#status = transcript.status;
      this.#aiEnabled = transcript.isAiEnabled;
      for (const message of transcript.messages) this.#show(message, false);
      this.follow();
    } catch {
      // A conversation that cannot be read back (removed, token refused) is left: the next question starts another.
      this.#store.write({ conversationId: undefined, lastEventId: undefined });
    }
  }

  /**
   * Asks in the remembered conversation (or starts one) and remembers where the answer went. Until
   * `endAsking`, agent messages that come live wait: one of them may be this very answer.
   */
  async ask(query: string, onDelta: (delta: string) => void): Promise<AnswerEnd> {
    this.#asking = true;
    const state = this.#store.read();
    const end = await this.#client.ask(query, state.visitorToken ?? null, state.conversationId ?? null, onDelta);
    const fresh = end.conversationId !== state.conversationId;
    this.#store.write({
      visitorToken: end.visitorToken,
      conversationId: end.conversationId,
      visitorId: end.visitorId,
      ...(fresh ? { lastEventId: undefined } : {}),
    });
    this.#known.add(end.messageId);
    return end;
  }

  /** The exchange is over (answered or not): the messages held meanwhile show, the answer itself skipped. */
  endAsking(): void {
    this.#asking = false;
    for (const message of this.#held.splice(0)) this.#live(message);
  }

  /**
   * Follows the conversation live without a gap. The stream resumes after the last event this visitor
   * saw, kept in storage, so a reload gets what arrived while the page was away (its backlog). With no
   * event to resume from (the first answer just ended, or the server no longer knows that event), the
   * transcript is read again once the stream is open (`ready`): anything earlier is in it, anything later
   * comes live. Either way a message may arrive twice; it is shown once, by its id.
   */
  follow(): void {
    const token = this.token;
    if (this.#following || !token) return;
    const following = new AbortController();
    this.#following = following;
    void this.#client.follow(
      token,
      this.#store.read().lastEventId,
      (event) => {
        if (following.signal.aborted) return;
        if (event.id) this.#store.write({ lastEventId: event.id });
        if (event.kind === 'ready') return event.resumed ? undefined : void this.#catchUp(token, following.signal);
        if (event.kind === 'status') return this.#statusChanged(event.status, event.isAiEnabled);
        this.#live(event.message);
      },
      following.signal,
    );
  }

  /** Asks for a person; the notice the request left (what happens next) shows now, and is skipped when it comes live. */
  async askForPerson(): Promise<void> {
    const token = this.token;
    if (!token) return;
    const transcript = await this.#client.setStatus(token, 'HUMAN_REQUESTED');
    this.#status = transcript.status;
    for (const message of transcript.messages) this.#live(message);
  }

  /** Rates an answer; false when there is no conversation to rate in. */
  async rate(messageId: string, rating: Rating): Promise<boolean> {
    const token = this.token;
    if (!token) return false;
    await this.#client.rate(token, messageId, rating);
    return true;
  }

  /** Details given before there is a conversation to store them in: kept until the first answer starts one. */
  keepContact(contact: Contact, form: boolean): void {
    this.#pendingContact = { contact, form };
  }

  /** The details kept for the conversation the first answer started, handed over once. */
  takeContact(): PendingContact | null {
    const pending = this.#pendingContact;
    this.#pendingContact = null;
    return pending;
  }

  /** Stores the visitor's details in the conversation and remembers the lead form is done; false when the server could not. */
  async saveContact(contact: Contact): Promise<boolean> {
    const body = {
      ...(contact.name ? { firstName: contact.name } : {}),
      ...(contact.email ? { email: contact.email } : {}),
      ...(contact.phone ? { phoneNumber: contact.phone } : {}),
    };
    const token = this.token;
    if (token === null || (Object.keys(body).length > 0 && !(await this.#identify(token, body)))) return false;
    this.putLeadAside();
    return true;
  }

  /** True once stored; a lost connection or a busy server is tried again twice, a refusal is not. */
  async #identify(token: string, body: Parameters<SessionClient['identify']>[1]): Promise<boolean> {
    for (const pause of [1_000, 3_000, 0]) {
      try {
        await this.#client.identify(token, body);
        return true;
      } catch (error) {
        const worthRetrying = !(error instanceof CallFailed) || error.status === 0 || error.status === 429 || error.status >= 500;
        if (!worthRetrying || pause === 0) return false;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
    return false;
  }

  async #catchUp(token: string, signal: AbortSignal): Promise<void> {
    try {
      const transcript = await this.#client.transcript(token);
      if (signal.aborted) return;
      for (const message of transcript.messages) this.#live(message);
      this.#statusChanged(transcript.status, transcript.isAiEnabled);
    } catch {
      // The live stream goes on; a message it missed shows after the next reload.
    }
  }

  /** A message from the live stream or a catch-up: the visitor's own and those shown already are skipped. */
  #live(message: LiveMessage): void {
    if (this.#known.has(message.id) || message.sender?.mine || message.sender?.type === 'visitor') return;
    // The answer this page is streaming can come live before its last frame names it: agent messages wait for it.
    if (message.from === 'agent' && this.#asking) {
      this.#held.push(message);
      return;
    }
    this.#show(message, true);
  }

  #show(message: LiveMessage, live: boolean): void {
    this.#known.add(message.id);
    this.#listener.message(message, live);
  }

  #statusChanged(status: ConversationStatus, aiEnabled: boolean | undefined): void {
    if (aiEnabled !== undefined) this.#aiEnabled = aiEnabled;
    const resolved = status === 'RESOLVED' && this.#status !== 'RESOLVED';
    this.#status = status;
    this.#listener.status(resolved);
  }
}
