import { AnswerStreamError, readAnswerStream } from '../../contract/answer-stream.js';
import { readSse } from './read-sse.js';

export type LeadRule = 'off' | 'optional' | 'required';

/** `GET /agents/{id}/widget`: what the widget shows. */
export interface WidgetConfig {
  agentId: string;
  name: string;
  iconUrl: string | null;
  widget: {
    color: string;
    position: 'left' | 'right';
    theme: 'light' | 'dark' | 'auto';
    title: string | null;
    avatarUrl: string | null;
    greeting: string;
    initialMessages: string[];
    suggestedQuestions: string[];
    language: string;
    humanHandoff: boolean;
    ratings: boolean;
    leadForm: { mode: 'off' | 'before-first-question' | 'after-first-answer'; name: LeadRule; email: LeadRule; phone: LeadRule };
    hideBranding: boolean;
  };
}

export interface Source {
  name: string;
  url: string | null;
}

export type Rating = 'GOOD' | 'BAD' | null;

export interface Sender {
  type: 'user' | 'visitor' | 'agent';
  name: string | null;
  mine?: boolean;
}

/** What a notice the server wrote tells, by kind (the API's `notice`); a newer server may send other kinds. */
export type Notice =
  | { kind: 'humanRequested'; email?: string }
  | { kind: 'personJoined'; name: string }
  | { kind: 'aiSwitchedOff' }
  | { kind: 'reopened' };

export interface TranscriptMessage {
  id: string;
  from: 'human' | 'agent' | 'system';
  /** A notice's English wording, shown for a kind this widget does not know. */
  text: string;
  sender: Sender | null;
  eval: Rating;
  sources: { name: string; url: string | null }[];
  notice?: Notice;
}

export type ConversationStatus = 'UNRESOLVED' | 'RESOLVED' | 'HUMAN_REQUESTED';

export interface Transcript {
  conversationId: string;
  status: ConversationStatus;
  isAiEnabled: boolean;
  messages: TranscriptMessage[];
}

/** The last frame of an answer: the ids, and the token that continues the conversation. */
export interface AnswerEnd {
  answer?: string;
  conversationId: string;
  visitorId: string;
  messageId: string;
  visitorToken: string;
  sources?: { datasource_name: string; source_url: string | null }[];
}

export type LiveMessage = Pick<TranscriptMessage, 'id' | 'from' | 'text' | 'sender' | 'notice'> & Partial<Pick<TranscriptMessage, 'eval' | 'sources'>>;

export type LiveEvent =
  | { kind: 'message'; id: string | undefined; message: LiveMessage }
  | { kind: 'status'; id: string | undefined; status: ConversationStatus; isAiEnabled?: boolean }
  /** The stream is open; `resumed`: it started after an event this page named, so nothing before it was missed. */
  | { kind: 'ready'; id: undefined; resumed: boolean };

/** A refused call, by the API's error code: the widget turns it into a sentence for the visitor. */
export class CallFailed extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`${status} ${code}`);
  }
}

/** The widget's one module that speaks to Parley: every call is relative to the origin the script came from. */
export class ParleyClient {
  constructor(
    readonly base: URL,
    readonly agentId: string,
  ) {}

  #url(path: string): string {
    return new URL(`agents/${encodeURIComponent(this.agentId)}${path}`, this.base).href;
  }

  async #call(method: string, path: string, token: string | null, body?: unknown, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.#url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    if (!response.ok) {
      const error = (await response.json().catch(() => ({}))) as { error?: string };
      throw new CallFailed(response.status, error.error ?? 'UNKNOWN');
    }
    return response;
  }

  async config(): Promise<WidgetConfig> {
    return (await (await this.#call('GET', '/widget', null)).json()) as WidgetConfig;
  }

  async transcript(token: string): Promise<Transcript> {
    return (await (await this.#call('GET', '/conversation', token)).json()) as Transcript;
  }

  /** Asks, calling `onDelta` with each piece of the answer as it streams; resolves with the last frame. */
  async ask(query: string, token: string | null, conversationId: string | null, onDelta: (text: string) => void): Promise<AnswerEnd> {
    const body = { query, streaming: true, ...(conversationId ? { conversationId } : {}) };
    const response = await this.#call('POST', '/query', token, body);
    if (response.body === null) throw new CallFailed(0, 'NO_BODY');
    try {
      return await readAnswerStream<AnswerEnd>(readSse(response.body), onDelta);
    } catch (error) {
      if (error instanceof AnswerStreamError) throw error.reason === 'error' ? new CallFailed(502, 'STREAM_ERROR') : new CallFailed(0, 'CUT_SHORT');
      throw error;
    }
  }

  async setStatus(token: string, status: 'HUMAN_REQUESTED' | 'RESOLVED'): Promise<Transcript> {
    return (await (await this.#call('POST', '/conversation/status', token, { status })).json()) as Transcript;
  }

  async rate(token: string, messageId: string, rating: Rating): Promise<void> {
    await this.#call('POST', '/conversation/ratings', token, { messageId, eval: rating });
  }

  async identify(token: string, contact: { firstName?: string; email?: string; phoneNumber?: string }): Promise<void> {
    await this.#call('PUT', '/conversation/contact', token, contact);
  }

  /**
   * Follows the conversation until `signal` aborts, resuming after the last event seen when the
   * connection drops (a growing pause between tries, reset by every event).
   */
  async follow(token: string, lastEventId: string | undefined, onEvent: (event: LiveEvent) => void, signal: AbortSignal): Promise<void> {
    let after = lastEventId;
    let pause = 1_000;
    while (!signal.aborted) {
      const from = after;
      try {
        const response = await fetch(this.#url('/conversation/events'), {
          headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(from ? { 'last-event-id': from } : {}) },
          signal,
        });
        // A token the server no longer accepts will not start working by trying again.
        if (response.status === 401 || response.status === 403 || response.status === 404) return;
        if (response.ok && response.body) {
          for await (const frame of readSse(response.body)) {
            pause = 1_000;
            if (frame.id) after = frame.id;
            if (frame.event === 'message') onEvent({ kind: 'message', id: frame.id, message: JSON.parse(frame.data) as LiveMessage });
            else if (frame.event === 'ready') onEvent({ kind: 'ready', id: undefined, resumed: from !== undefined && (JSON.parse(frame.data) as { resumed: boolean }).resumed });
            else if (frame.event === 'status') onEvent({ kind: 'status', id: frame.id, ...(JSON.parse(frame.data) as { status: ConversationStatus; isAiEnabled?: boolean }) });
          }
        }
      } catch {
        if (signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 30_000);
    }
  }
}
