import { afterAll, describe, expect } from 'vitest';
import { FakeOpenAIChatServer, GREETING } from '../support/fake-openai-chat-server.js';
import { parleyTest as it } from '../support/parley-test.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import { streamAnswer } from '../support/streamed-answer.js';
import { follow } from '../support/visitor-stream.js';
import type { AgentBody, AnswerBody, ConversationBody, ErrorBody } from '../support/bodies.js';
import { handoffNotices, noticeText } from '../../src/domain/handoff.js';
import type { MessageNotice } from '../../src/store/store.js';

interface Transcript {
  status: string;
  isAiEnabled: boolean;
  messages: { from: string; text: string; sender: { type: string; name: string | null } | null; notice?: MessageNotice }[];
}

const ANSWER = 'Hello from the fake server.';

describe.each(STORE_KINDS)('handing a conversation to a person, on %s', (kind) => {
  const upstream = new FakeOpenAIChatServer({ defaultReply: GREETING });
  let parley: TestParley;
  let ws: Workspace;
  let member: SignedInMember;
  /** A public agent that goes quiet once a person is asked for (the default), and one that keeps answering. */
  let quietAgent: string;
  let keepsAnswering: string;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: await upstream.startAsRemoteModel() });
    ws = await parley.newWorkspace();
    member = await parley.newMember(ws.id);
    const create = async (body: object) =>
      (
        await parley.call<AgentBody>('POST', '/agents', {
          key: ws.key,
          body: { name: 'Shop helper', modelName: 'remote', visibility: 'public', ...body },
        })
      ).body;
    const quiet = await create({});
    expect(quiet.keepAnsweringUntilTakenOver).toBe(false);
    quietAgent = quiet.id;
    keepsAnswering = (await create({ keepAnsweringUntilTakenOver: true })).id;
  }, 120_000);
  afterAll(() => upstream.stop());

  /** The widget's first question (no key), then the visitor's next ones with the token it got. */
  const firstQuestion = async (agentId: string, query = 'Where is my parcel?') => {
    const answered = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, { key: null, body: { query } });
    expect(answered.status).toBe(200);
    expect(answered.body.answer).toBe(ANSWER);
    return answered.body;
  };
  const nextQuestion = async (agentId: string, visitor: AnswerBody, query: string) => {
    const answered = await parley.call<AnswerBody>('POST', `/agents/${agentId}/query`, {
      key: visitor.visitorToken,
      body: { query, conversationId: visitor.conversationId },
    });
    expect(answered.status).toBe(200);
    return answered.body;
  };
  const askForPerson = (agentId: string, visitor: AnswerBody) =>
    parley.call<Transcript>('POST', `/agents/${agentId}/conversation/status`, { key: visitor.visitorToken, body: { status: 'HUMAN_REQUESTED' } });
  const transcript = async (agentId: string, visitor: AnswerBody) =>
    (await parley.call<Transcript>('GET', `/agents/${agentId}/conversation`, { key: visitor.visitorToken })).body;
  const stored = async (conversationId: string) =>
    (await parley.call<ConversationBody>('GET', `/conversations/${conversationId}`, { key: ws.key })).body;
  const lines = (messages: Transcript['messages']) => messages.map((message) => [message.from, message.text]);

  it('goes quiet once the visitor asks for a person: the message is kept for the team, the model is not called', async () => {
    const visitor = await firstQuestion(quietAgent);
    const contact = await parley.call('PUT', `/agents/${quietAgent}/conversation/contact`, {
      key: visitor.visitorToken,
      body: { email: 'lin@example.com' },
    });
    expect(contact.status).toBe(204);
    expect((await askForPerson(quietAgent, visitor)).body.status).toBe('HUMAN_REQUESTED');
    const calls = upstream.requests.length;

    const asked = await nextQuestion(quietAgent, visitor, 'Are you there?');
    expect(asked).toEqual({
      conversationId: visitor.conversationId,
      visitorId: visitor.visitorId,
      messageId: expect.any(String),
      visitorToken: expect.any(String),
    });
    // Streaming: the exchange's ids as the one response event, no text.
    const streamed = await streamAnswer(`${parley.url}/agents/${quietAgent}/query`, visitor.visitorToken, {
      query: 'Hello?',
      conversationId: visitor.conversationId,
    });
    expect(streamed.status).toBe(200);
    expect(streamed.answer).toBe('');
    expect(streamed.final).toMatchObject({ conversationId: visitor.conversationId, messageId: expect.any(String) });
    expect(streamed.final).not.toHaveProperty('answer');
    expect(upstream.requests.length).toBe(calls);

    const conversation = await stored(visitor.conversationId);
    // This read lists the newest first.
    expect(conversation.messages.map((message) => [message.from, message.text]).reverse()).toEqual([
      ['human', 'Where is my parcel?'],
      ['agent', ANSWER],
      ['system', noticeText(handoffNotices.humanRequested('lin@example.com'))],
      ['human', 'Are you there?'],
      ['human', 'Hello?'],
    ]);
    expect(conversation).toMatchObject({ status: 'HUMAN_REQUESTED', isAiEnabled: true, unreadCount: 3 });
    // The team hears of the waiting messages as of any other.
    const announced = (await parley.core.store.outbox.list({ workspaceId: ws.id }))
      .filter((event) => event.type === 'message.created' && event.payload.conversationId === visitor.conversationId)
      .map((event) => (event.payload.message as { text: string }).text);
    expect(announced).toEqual(expect.arrayContaining(['Are you there?', 'Hello?']));
  });

  it('goes quiet once a member sets HUMAN_REQUESTED, and answers again when the member switches it back on', async () => {
    const visitor = await firstQuestion(quietAgent);
    const patched = await parley.call('PATCH', `/conversations/${visitor.conversationId}`, {
      key: member.accessToken,
      body: { status: 'HUMAN_REQUESTED' },
    });
    expect(patched.status).toBe(200);
    const calls = upstream.requests.length;
    expect(await nextQuestion(quietAgent, visitor, 'Still there?')).not.toHaveProperty('answer');
    expect(upstream.requests.length).toBe(calls);
    expect(lines((await transcript(quietAgent, visitor)).messages).slice(2)).toEqual([
      ['system', noticeText(handoffNotices.humanRequested(null))],
      ['human', 'Still there?'],
    ]);

    const handedBack = await parley.call<ConversationBody>('PATCH', `/conversations/${visitor.conversationId}`, {
      key: member.accessToken,
      body: { isAiEnabled: true },
    });
    expect(handedBack.body.status).toBe('UNRESOLVED');
    expect((await nextQuestion(quietAgent, visitor, 'And now?')).answer).toBe(ANSWER);
  });

  it('keeps answering until a member takes over when the agent is set to', async () => {
    const visitor = await firstQuestion(keepsAnswering);
    await askForPerson(keepsAnswering, visitor);
    expect((await nextQuestion(keepsAnswering, visitor, 'Meanwhile, what are your hours?')).answer).toBe(ANSWER);
    const replied = await parley.call('POST', `/conversations/${visitor.conversationId}/messages`, {
      key: member.accessToken,
      body: { text: 'Ann here.' },
    });
    expect(replied.status).toBe(201);
    const calls = upstream.requests.length;
    expect(await nextQuestion(keepsAnswering, visitor, 'Thanks Ann')).not.toHaveProperty('answer');
    expect(upstream.requests.length).toBe(calls);
  });

  it('tells the visitor, live and in the history, that a person was asked for and that a member joined', async () => {
    const visitor = await firstQuestion(quietAgent);
    const stream = await follow(`${parley.url}/agents/${quietAgent}/conversation/events`, visitor.visitorToken);
    try {
      await askForPerson(quietAgent, visitor);
      await parley.call('POST', `/conversations/${visitor.conversationId}/messages`, { key: member.accessToken, body: { text: 'Hi, Ann here.' } });
      await stream.frames.waitFor(5, 10_000);
      const notices = stream.frames.items
        .filter((frame) => frame.event === 'message')
        .map((frame) => [frame.data.from, frame.data.text, frame.data.sender]);
      expect(notices).toEqual([
        ['system', noticeText(handoffNotices.humanRequested(null)), null],
        ['system', noticeText(handoffNotices.personJoined('Test person')), null],
        ['human', 'Hi, Ann here.', { type: 'user', name: 'Test person', mine: false }],
      ]);
    } finally {
      stream.close();
    }
    const history = await transcript(quietAgent, visitor);
    expect(history.messages.slice(2).map((message) => [message.from, message.text, message.sender])).toEqual([
      ['system', noticeText(handoffNotices.humanRequested(null)), null],
      ['system', noticeText(handoffNotices.personJoined('Test person')), null],
      ['human', 'Hi, Ann here.', { type: 'user', name: 'Test person' }],
    ]);
    // The hosted widget's read of the history has them too (newest first).
    const hosted = await parley.call<Transcript>('GET', `/conversations/${visitor.conversationId}`, { key: visitor.visitorToken });
    expect(hosted.body.messages.filter((message) => message.from === 'system')).toHaveLength(2);
  });

  it('tells the visitor their message reopened a resolved conversation; the agent answers again unless a member took over', async () => {
    const visitor = await firstQuestion(quietAgent);
    await parley.call('PATCH', `/conversations/${visitor.conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } });
    const stream = await follow(`${parley.url}/agents/${quietAgent}/conversation/events`, visitor.visitorToken);
    try {
      expect((await nextQuestion(quietAgent, visitor, 'One more thing')).answer).toBe(ANSWER);
      const frames = await stream.frames.waitFor(3, 10_000);
      expect(frames.filter((frame) => frame.event === 'message').map((frame) => [frame.data.from, frame.data.text])).toEqual([
        ['human', 'One more thing'],
        ['system', noticeText(handoffNotices.reopened)],
        ['agent', ANSWER],
      ]);
    } finally {
      stream.close();
    }
    expect(lines((await transcript(quietAgent, visitor)).messages).slice(2)).toEqual([
      ['human', 'One more thing'],
      ['system', noticeText(handoffNotices.reopened)],
      ['agent', ANSWER],
    ]);

    // Taken over, then resolved: reopening it leaves the answer to the member.
    await parley.call('POST', `/conversations/${visitor.conversationId}/messages`, { key: member.accessToken, body: { text: 'Done for you.' } });
    await parley.call('PATCH', `/conversations/${visitor.conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } });
    const calls = upstream.requests.length;
    expect(await nextQuestion(quietAgent, visitor, 'Actually, not quite')).not.toHaveProperty('answer');
    expect(upstream.requests.length).toBe(calls);
    expect(lines((await transcript(quietAgent, visitor)).messages).slice(-2)).toEqual([
      ['human', 'Actually, not quite'],
      ['system', noticeText(handoffNotices.reopened)],
    ]);
  });

  it('names what each notice tells, by kind and parameters, live and read back; the text stays English', async () => {
    const visitor = await firstQuestion(quietAgent);
    await parley.call('PUT', `/agents/${quietAgent}/conversation/contact`, { key: visitor.visitorToken, body: { email: 'lin@example.com' } });
    const stream = await follow(`${parley.url}/agents/${quietAgent}/conversation/events`, visitor.visitorToken);
    const expected = [
      ['human', undefined],
      ['agent', undefined],
      ['system', { kind: 'humanRequested', email: 'lin@example.com' }],
      ['system', { kind: 'personJoined', name: 'Test person' }],
      ['human', undefined],
      ['system', { kind: 'reopened' }],
      ['system', { kind: 'aiSwitchedOff' }],
    ];
    try {
      await askForPerson(quietAgent, visitor);
      await parley.call('PATCH', `/conversations/${visitor.conversationId}`, {
        key: member.accessToken,
        body: { isAiEnabled: false, status: 'RESOLVED' },
      });
      await nextQuestion(quietAgent, visitor, 'One more thing');
      // Handed back, then taken over with the API key: nobody is named.
      await parley.call('PATCH', `/conversations/${visitor.conversationId}`, { key: ws.key, body: { isAiEnabled: true } });
      await parley.call('PATCH', `/conversations/${visitor.conversationId}`, { key: ws.key, body: { isAiEnabled: false } });
      const live = () => stream.frames.items.filter((frame) => frame.event === 'message').map((frame) => [frame.data.from, frame.data.notice]);
      // Status frames come between the messages: wait frame by frame for the five messages.
      while (live().length < 5) await stream.frames.waitFor(stream.frames.items.length + 1, 10_000);
      expect(live()).toEqual(expected.slice(2));
    } finally {
      stream.close();
    }
    const history = await transcript(quietAgent, visitor);
    expect(history.messages.map((message) => [message.from, message.notice])).toEqual(expected);
    for (const message of history.messages) {
      if (message.notice !== undefined) expect(message.text).toBe(noticeText(message.notice));
    }
    // The hosted widget's read (newest first) carries them too; the team's read shows the English text.
    const hosted = await parley.call<Transcript>('GET', `/conversations/${visitor.conversationId}`, { key: visitor.visitorToken });
    expect(hosted.body.messages.map((message) => [message.from, message.notice]).reverse()).toEqual(expected);
    const team = await stored(visitor.conversationId);
    expect(
      team.messages
        .filter((message) => message.from === 'system')
        .map((message) => message.text)
        .reverse(),
    ).toEqual([
      'A person will answer here soon. If you leave, we can also reply to lin@example.com by e-mail.',
      'The agent was switched off for this conversation; Test person joined and will answer.',
      'This conversation was reopened.',
      'The agent was switched off for this conversation; a person will answer.',
    ]);
  });

  it('keeps the setting to its workspace: another workspace can neither read nor change it', async () => {
    const elsewhere = await parley.newWorkspace();
    const read = await parley.call<ErrorBody>('GET', `/agents/${keepsAnswering}`, { key: elsewhere.key });
    expect(read.status).toBe(403);
    expect(JSON.stringify(read.body)).not.toContain('keepAnsweringUntilTakenOver');
    const changed = await parley.call<ErrorBody>('PATCH', `/agents/${keepsAnswering}`, {
      key: elsewhere.key,
      body: { keepAnsweringUntilTakenOver: false },
    });
    expect(changed.status).toBe(403);
    expect((await parley.call<AgentBody>('GET', `/agents/${keepsAnswering}`, { key: ws.key })).body.keepAnsweringUntilTakenOver).toBe(true);
    // Its own workspace changes it; anything but a boolean is refused.
    const own = (body: object) => parley.call<AgentBody>('PATCH', `/agents/${quietAgent}`, { key: ws.key, body });
    expect((await own({ keepAnsweringUntilTakenOver: 'yes' })).status).toBe(400);
    expect((await own({ keepAnsweringUntilTakenOver: true })).body.keepAnsweringUntilTakenOver).toBe(true);
    expect((await own({ keepAnsweringUntilTakenOver: false })).body.keepAnsweringUntilTakenOver).toBe(false);
  });
});
