import type { AnswerBody, VisitorContextInput } from '../../../src/contract/answers.js';
import type { ErrorBody } from '../../../src/contract/errors.js';
import { AnswerStreamError, readAnswerStream } from '../../../src/contract/answer-stream.js';
import type { ConversationStatus, MessageEval } from '../../../src/contract/conversations.js';
import type {
  VisitorContactBody,
  VisitorMessageBody,
  VisitorStatusBody,
  VisitorStreamPayloads,
  VisitorTranscriptBody,
} from '../../../src/contract/visitor-conversation.js';
import type { WidgetConfigBody } from '../../../src/contract/widget-settings.js';
import { readSse } from './read-sse.js';

export type { ConversationStatus };

/** `GET /agents/{id}/widget`: what the widget shows. */
export type WidgetConfig = WidgetConfigBody;

/** A source as the widget lists it under an answer. */
export type Source = Pick<VisitorMessageBody['sources'][number], 'name' | 'url'>;

export type Rating = MessageEval;

/** Who wrote a message; `mine` (live messages only) marks the visitor's own, written in another tab. */
export type Sender = NonNullable<VisitorMessageBody['sender']> & { mine?: boolean };

export type Transcript = VisitorTranscriptBody;

/** What an answer's stream ends with: the answer and the ids that continue its conversation. */
export type AnswerEnd = AnswerBody;

/** A message as the widget shows it, live or read back: the transcript's rating and sources may be missing. */
export type LiveMessage = Pick<VisitorMessageBody, 'id' | 'from' | 'text' | 'notice'> & { sender: Sender | null } & Partial<
    Pick<VisitorMessageBody, 'eval' | 'sources'>
  >;

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
    /** What the page tells the members of where a conversation starts (sent with its first question). */
    readonly pageContext: () => VisitorContextInput | undefined = () => undefined,
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
      const error = (await response.json().catch(() => ({}))) as Partial<ErrorBody>;
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
    // A first question starts the conversation: the page's context goes with it, for the members.
    const context = conversationId ? undefined : this.pageContext();
    const body = { query, streaming: true, ...(conversationId ? { conversationId } : {}), ...(context === undefined ? {} : { context }) };
    const response = await this.#call('POST', '/query', token, body);
    if (response.body === null) throw new CallFailed(0, 'NO_BODY');
    try {
      return await readAnswerStream(readSse(response.body), onDelta);
    } catch (error) {
      if (error instanceof AnswerStreamError) throw error.reason === 'error' ? new CallFailed(502, 'STREAM_ERROR') : new CallFailed(0, 'CUT_SHORT');
      throw error;
    }
  }

  async setStatus(token: string, status: VisitorStatusBody['status']): Promise<Transcript> {
    return (await (await this.#call('POST', '/conversation/status', token, { status } satisfies VisitorStatusBody)).json()) as Transcript;
  }

  async rate(token: string, messageId: string, rating: Rating): Promise<void> {
    await this.#call('POST', '/conversation/ratings', token, { messageId, eval: rating });
  }

  async identify(token: string, contact: VisitorContactBody): Promise<void> {
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
            if (frame.event === 'message')
              onEvent({ kind: 'message', id: frame.id, message: JSON.parse(frame.data) as VisitorStreamPayloads['message'] });
            else if (frame.event === 'ready')
              onEvent({
                kind: 'ready',
                id: undefined,
                resumed: from !== undefined && (JSON.parse(frame.data) as VisitorStreamPayloads['ready']).resumed,
              });
            else if (frame.event === 'status')
              onEvent({ kind: 'status', id: frame.id, ...(JSON.parse(frame.data) as VisitorStreamPayloads['status']) });
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
