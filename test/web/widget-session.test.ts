import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatSession, type SessionClient, type SessionStore, type VisitorState } from '../../web/widget/src/chat-session.js';
import { CallFailed, type AnswerEnd, type LiveEvent, type LiveMessage, type Transcript } from '../../web/widget/src/parley-client.js';

/** Storage in memory, as the widget's VisitorStore keeps it when localStorage is off. */
class MemoryStore implements SessionStore {
  state: VisitorState;

  constructor(state: VisitorState = {}) {
    this.state = { ...state };
  }

  read(): VisitorState {
    return { ...this.state };
  }

  write(change: Partial<VisitorState>): VisitorState {
    this.state = { ...this.state, ...change };
    return this.read();
  }
}

/** The live stream the session opened: the test plays the server's events into it. */
interface OpenStream {
  lastEventId: string | undefined;
  signal: AbortSignal;
  push(event: LiveEvent): void;
}

/**
 * The API as the session sees it, answering from scripts the test fills in; a call nobody scripted
 * fails the test instead of answering something plausible.
 */
class ScriptedClient implements SessionClient {
  readonly transcripts: Transcript[] = [];
  readonly answers: (() => Promise<AnswerEnd>)[] = [];
  readonly identifyResults: (Error | null)[] = [];
  readonly streams: OpenStream[] = [];
  readonly calls: string[] = [];

  async transcript(token: string): Promise<Transcript> {
    this.calls.push(`transcript ${token}`);
    return next(this.transcripts, 'transcript');
  }

  async ask(query: string, token: string | null, conversationId: string | null, onDelta: (delta: string) => void): Promise<AnswerEnd> {
    this.calls.push(`ask ${query} ${token ?? '-'} ${conversationId ?? '-'}`);
    const answer = next(this.answers, 'ask');
    onDelta('…');
    return answer();
  }

  async follow(_token: string, lastEventId: string | undefined, onEvent: (event: LiveEvent) => void, signal: AbortSignal): Promise<void> {
    this.streams.push({ lastEventId, signal, push: onEvent });
  }

  async setStatus(_token: string, status: 'HUMAN_REQUESTED' | 'RESOLVED'): Promise<Transcript> {
    this.calls.push(`status ${status}`);
    return next(this.transcripts, 'setStatus');
  }

  async rate(_token: string, messageId: string, rating: 'GOOD' | 'BAD' | null): Promise<void> {
    this.calls.push(`rate ${messageId} ${rating ?? 'none'}`);
  }

  async identify(_token: string, contact: { firstName?: string; email?: string; phoneNumber?: string }): Promise<void> {
    this.calls.push(`identify ${JSON.stringify(contact)}`);
    const error = next(this.identifyResults, 'identify');
    if (error) throw error;
  }

  /** The one stream open now. */
  get stream(): OpenStream {
    const open = this.streams.filter((stream) => !stream.signal.aborted);
    expect(open).toHaveLength(1);
    return open[0]!;
  }
}

function next<T>(script: T[], call: string): T {
  const answer = script.shift();
  if (answer === undefined) throw new Error(`unscripted call: ${call}`);
  return answer;
}

/** What the session told its views, in order: messages by id (`live` marked), status changes. */
function recorder() {
  const told: string[] = [];
  return {
    told,
    listener: {
      message: (message: LiveMessage, live: boolean) => void told.push(`${live ? 'live' : 'read'} ${message.id}`),
      status: (resolved: boolean) => void told.push(resolved ? 'resolved' : 'status'),
    },
  };
}

const agent = (id: string, text = `answer ${id}`): LiveMessage => ({ id, from: 'agent', text, sender: { type: 'agent', name: 'Acme' } });
const person = (id: string): LiveMessage => ({ id, from: 'human', text: `reply ${id}`, sender: { type: 'user', name: 'Ada' } });
const visitor = (id: string): LiveMessage => ({ id, from: 'human', text: `question ${id}`, sender: { type: 'visitor', name: null } });
const notice = (id: string): LiveMessage => ({ id, from: 'system', text: `notice ${id}`, sender: null });

const transcript = (messages: LiveMessage[], status: Transcript['status'] = 'UNRESOLVED', isAiEnabled = true): Transcript => ({
  conversationId: 'c1',
  status,
  isAiEnabled,
  messages: messages.map((message) => ({ eval: null, sources: [], createdAt: '2030-01-01T00:00:00.000Z', ...message })),
});

const answerEnd = (messageId: string, conversationId = 'c1'): AnswerEnd => ({
  answer: `answer ${messageId}`,
  conversationId,
  visitorId: 'v1',
  messageId,
  visitorToken: 'token-2',
});

/** A session on a conversation this visitor had before the page loaded, read back and followed. */
async function restored(messages: LiveMessage[], state: VisitorState = {}) {
  const client = new ScriptedClient();
  const store = new MemoryStore({ visitorToken: 'token-1', conversationId: 'c1', ...state });
  const { told, listener } = recorder();
  const session = new ChatSession(client, store, listener);
  client.transcripts.push(transcript(messages));
  await session.restore();
  return { client, store, told, session };
}

/** Lets the catch-up's transcript call settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the widget’s session', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the remembered conversation back, the visitor’s questions too, and follows it from the last event seen', async () => {
    const { client, told, session } = await restored([visitor('m1'), agent('m2')], { lastEventId: 'e7' });
    expect(told).toEqual(['read m1', 'read m2']);
    expect(client.stream.lastEventId).toBe('e7');
    expect(session.token).toBe('token-1');
  });

  it('catches up once the stream is open when there is no event to resume from, showing each message once', async () => {
    const { client, store, told } = await restored([visitor('m1'), agent('m2')]);
    client.transcripts.push(transcript([visitor('m1'), agent('m2'), person('m3')]));
    client.stream.push({ kind: 'ready', id: undefined, resumed: false });
    await settle();
    expect(told).toEqual(['read m1', 'read m2', 'live m3', 'status']);

    // The stream brings what the catch-up read already, then something new.
    client.stream.push({ kind: 'message', id: 'e3', message: person('m3') });
    client.stream.push({ kind: 'message', id: 'e4', message: agent('m4') });
    expect(told.slice(4)).toEqual(['live m4']);
    expect(store.state.lastEventId).toBe('e4');
  });

  it('does not read the transcript again when the stream resumed after the event named', async () => {
    const { client, told } = await restored([agent('m1')], { lastEventId: 'e1' });
    client.stream.push({ kind: 'ready', id: undefined, resumed: true });
    await settle();
    expect(client.calls).toEqual(['transcript token-1']);
    expect(told).toEqual(['read m1']);
  });

  it('skips the visitor’s own messages when they come live: the page drew them as they were sent', async () => {
    const { client, told } = await restored([]);
    client.stream.push({ kind: 'message', id: 'e1', message: visitor('m1') });
    client.stream.push({ kind: 'message', id: 'e2', message: { ...person('m2'), sender: { type: 'user', name: 'Ada', mine: true } } });
    client.stream.push({ kind: 'message', id: 'e3', message: notice('m3') });
    expect(told).toEqual(['live m3']);
  });

  it('holds agent messages that come live while an answer streams: the answer itself is dropped, the others show after it', async () => {
    const { client, told, session } = await restored([agent('m1')]);
    let finish = (_end: AnswerEnd) => {};
    client.answers.push(() => new Promise((resolve) => (finish = resolve)));
    const asking = session.ask('Where is my order?', () => {});
    expect(session.asking).toBe(true);

    client.stream.push({ kind: 'message', id: 'e2', message: agent('a1') });
    client.stream.push({ kind: 'message', id: 'e3', message: person('p1') });
    client.stream.push({ kind: 'message', id: 'e4', message: agent('a2') });
    expect(told).toEqual(['read m1', 'live p1']);

    finish(answerEnd('a1'));
    await asking;
    session.endAsking();
    expect(told).toEqual(['read m1', 'live p1', 'live a2']);
    expect(session.asking).toBe(false);
    // Ended, the stream's copy of the answer is still known.
    client.stream.push({ kind: 'message', id: 'e5', message: agent('a1') });
    expect(told).toHaveLength(3);
  });

  it('shows the held messages when the question fails too', async () => {
    const { client, told, session } = await restored([]);
    let fail = (_error: Error) => {};
    client.answers.push(() => new Promise((_resolve, reject) => (fail = reject)));
    const asking = session.ask('Hello?', () => {});
    client.stream.push({ kind: 'message', id: 'e1', message: agent('a9') });
    fail(new CallFailed(0, 'CUT_SHORT'));
    await expect(asking).rejects.toThrow(CallFailed);
    expect(told).toEqual([]);
    session.endAsking();
    expect(told).toEqual(['live a9']);
  });

  it('remembers the conversation the first answer started and follows it, with no event to resume from', async () => {
    const client = new ScriptedClient();
    const store = new MemoryStore({ conversationId: 'gone', lastEventId: 'e9', visitorToken: 'token-1' });
    const session = new ChatSession(client, store, recorder().listener);
    client.answers.push(async () => answerEnd('a1', 'c2'));
    const end = await session.ask('Hi', () => {});
    session.endAsking();
    expect(end.messageId).toBe('a1');
    expect(client.calls).toEqual(['ask Hi token-1 gone']);
    expect(store.state).toEqual({ conversationId: 'c2', visitorToken: 'token-2', visitorId: 'v1', lastEventId: undefined });
    session.follow();
    session.follow();
    expect(client.streams).toHaveLength(1);
    expect(client.stream.lastEventId).toBeUndefined();
  });

  it('tells a resolution once, and offers a person only while the agent answers and nobody was asked', async () => {
    const { client, told, session } = await restored([]);
    expect(session.personAskable).toBe(true);
    client.stream.push({ kind: 'status', id: 'e1', status: 'RESOLVED' });
    client.stream.push({ kind: 'status', id: 'e2', status: 'RESOLVED' });
    expect(told).toEqual(['resolved', 'status']);
    client.stream.push({ kind: 'status', id: 'e3', status: 'UNRESOLVED', isAiEnabled: false });
    expect(session.personAskable).toBe(false);
  });

  it('asks for a person: the notice the request left shows at once and not again when it comes live', async () => {
    const { client, told, session } = await restored([agent('m1')]);
    client.transcripts.push(transcript([agent('m1'), notice('n1')], 'HUMAN_REQUESTED'));
    await session.askForPerson();
    expect(told).toEqual(['read m1', 'live n1']);
    expect(session.personAskable).toBe(false);
    client.stream.push({ kind: 'message', id: 'e1', message: notice('n1') });
    expect(told).toHaveLength(2);
  });

  it('starts over on reset: the stream closes, the conversation is forgotten, a message may show again', async () => {
    const { client, store, told, session } = await restored([agent('m1')], { lastEventId: 'e1', leadDone: true });
    const old = client.stream;
    session.reset();
    expect(old.signal.aborted).toBe(true);
    old.push({ kind: 'message', id: 'e2', message: person('m2') });
    expect(told).toEqual(['read m1']);
    expect(store.state).toEqual({ visitorToken: 'token-1', conversationId: undefined, lastEventId: undefined, leadDone: true });
    expect(session.token).toBeNull();

    store.write({ conversationId: 'c1' });
    client.transcripts.push(transcript([agent('m1')]));
    await session.restore();
    expect(told).toEqual(['read m1', 'read m1']);
  });

  it('leaves a conversation that cannot be read back, and follows nothing', async () => {
    const client = new ScriptedClient();
    const store = new MemoryStore({ visitorToken: 'token-1', conversationId: 'c1', lastEventId: 'e1' });
    const session = new ChatSession(client, store, recorder().listener);
    await session.restore();
    expect(store.state.conversationId).toBeUndefined();
    expect(store.state.lastEventId).toBeUndefined();
    expect(client.streams).toEqual([]);
  });

  it('rates only in a conversation', async () => {
    const { client, session } = await restored([agent('m1')]);
    expect(await session.rate('m1', 'GOOD')).toBe(true);
    expect(client.calls.at(-1)).toBe('rate m1 GOOD');
    session.reset();
    expect(await session.rate('m1', null)).toBe(false);
  });

  it('stores details, trying a lost connection or a busy server again twice, a refusal not at all', async () => {
    vi.useFakeTimers();
    const { client, store, session } = await restored([]);
    client.identifyResults.push(new CallFailed(0, 'OFFLINE'), new CallFailed(503, 'UNAVAILABLE'), null);
    const saving = session.saveContact({ name: 'Ada', email: 'ada@example.com' });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await saving).toBe(true);
    expect(client.calls.filter((call) => call.startsWith('identify'))).toEqual(
      Array(3).fill('identify {"firstName":"Ada","email":"ada@example.com"}'),
    );
    expect(session.leadDone).toBe(true);

    store.write({ leadDone: undefined });
    client.identifyResults.push(new CallFailed(400, 'INVALID'));
    expect(await session.saveContact({ phone: '12' })).toBe(false);
    expect(client.calls.at(-1)).toBe('identify {"phoneNumber":"12"}');
    expect(session.leadDone).toBe(false);

    client.identifyResults.push(new CallFailed(503, 'UNAVAILABLE'), new CallFailed(503, 'UNAVAILABLE'), new CallFailed(503, 'UNAVAILABLE'));
    const failing = session.saveContact({ name: 'Ada' });
    await vi.advanceTimersByTimeAsync(4_000);
    expect(await failing).toBe(false);
    expect(client.identifyResults).toEqual([]);
  });

  it('counts empty details as stored without a call, and keeps details given before there is a conversation', async () => {
    const client = new ScriptedClient();
    const session = new ChatSession(client, new MemoryStore({ visitorToken: 'token-1', conversationId: 'c1' }), recorder().listener);
    expect(await session.saveContact({})).toBe(true);
    expect(client.calls).toEqual([]);
    expect(session.takeContact()).toBeNull();
    session.keepContact({ email: 'ada@example.com' }, true);
    expect(session.takeContact()).toEqual({ contact: { email: 'ada@example.com' }, form: true });
    expect(session.takeContact()).toBeNull();
  });
});
