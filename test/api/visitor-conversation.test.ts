import { describe, expect, it } from 'vitest';
import { follow } from '../support/visitor-stream.js';
import type { SignedInMember, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, AnswerBody, ConversationBody, ErrorBody } from '../support/bodies.js';
import { handoffNotices, noticeText } from '../../src/domain/handoff.js';

interface Transcript {
  conversationId: string;
  status: string;
  isAiEnabled: boolean;
  messages: { id: string; from: string; text: string; sender: { type: string; name: string | null } | null; eval: string | null }[];
}

describe.each(STORE_KINDS)('the widget’s calls about the visitor’s own conversation on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;
  let member: SignedInMember;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    member = await parley.newMember(ws.id);
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Shop helper', visibility: 'public' } })).body.id;
  });

  /** A visitor's first question, as the widget sends it: no key. */
  const ask = async (query: string, agent = agentId) => {
    const answered = await parley.call<AnswerBody>('POST', `/agents/${agent}/query`, { key: null, body: { query } });
    expect(answered.status).toBe(200);
    return answered.body;
  };
  const asVisitor = <T>(token: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    parley.call<T>(method, path, { key: token, body, headers });

  it('reads the conversation back with its token only: senders by kind and name, on the website channel', async () => {
    const first = await ask('Do you deliver on Sundays?');
    const transcript = await asVisitor<Transcript>(first.visitorToken, 'GET', `/agents/${agentId}/conversation`);
    expect(transcript.status).toBe(200);
    expect(transcript.body).toMatchObject({ conversationId: first.conversationId, status: 'UNRESOLVED', isAiEnabled: true });
    expect(transcript.body.messages.map((m) => [m.from, m.sender])).toEqual([
      ['human', { type: 'visitor', name: null }],
      ['agent', { type: 'agent', name: 'Shop helper' }],
    ]);
    const stored = await parley.call<ConversationBody>('GET', `/conversations/${first.conversationId}`, { key: ws.key });
    expect(stored.body.channel).toBe('website');

    expect((await asVisitor<ErrorBody>(null, 'GET', `/agents/${agentId}/conversation`)).status).toBe(401);
    expect((await asVisitor<ErrorBody>(`${first.visitorToken}x`, 'GET', `/agents/${agentId}/conversation`)).status).toBe(401);
    // A token reads its own conversation, never another visitor's.
    const other = await ask('Another visitor asks');
    const theirs = await asVisitor<Transcript>(other.visitorToken, 'GET', `/agents/${agentId}/conversation`);
    expect(theirs.body.conversationId).toBe(other.conversationId);
    expect(JSON.stringify(theirs.body)).not.toContain('Sundays');
  });

  it('answers 404 for a token of another agent or workspace, as for a conversation that does not exist', async () => {
    const visitor = await ask('Hello');
    const sibling = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Sibling', visibility: 'public' } })).body.id;
    const elsewhere = await parley.newWorkspace();
    const foreign = (await parley.call<AgentBody>('POST', '/agents', { key: elsewhere.key, body: { visibility: 'public' } })).body.id;
    for (const agent of [sibling, foreign]) {
      const refused = await asVisitor<ErrorBody>(visitor.visitorToken, 'GET', `/agents/${agent}/conversation`);
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain(visitor.conversationId);
      const status = await asVisitor<ErrorBody>(visitor.visitorToken, 'POST', `/agents/${agent}/conversation/status`, { status: 'RESOLVED' });
      expect(status.status).toBe(404);
    }
    const foreignVisitor = await ask('Visitor of the other workspace', foreign);
    expect((await asVisitor<ErrorBody>(foreignVisitor.visitorToken, 'GET', `/agents/${agentId}/conversation`)).status).toBe(404);
    // The hosted widget's read, by token or by the visitor id another conversation was started with: 404 too.
    const siblingVisitor = await ask('Visitor of the sibling agent', sibling);
    for (const [token, visitorId] of [
      [siblingVisitor.visitorToken, siblingVisitor.visitorId],
      [foreignVisitor.visitorToken, foreignVisitor.visitorId],
    ] as const) {
      expect((await asVisitor<ErrorBody>(token, 'GET', `/conversations/${visitor.conversationId}`)).status).toBe(404);
      expect((await asVisitor<ErrorBody>(null, 'GET', `/conversations/${visitor.conversationId}?visitorId=${visitorId}`)).status).toBe(404);
    }
    expect((await parley.call<ConversationBody>('GET', `/conversations/${visitor.conversationId}`, { key: ws.key })).body.status).toBe('UNRESOLVED');
  });

  it('asks for a person and resolves, with the events a change through the API emits', async () => {
    const visitor = await ask('I need a human');
    const path = `/agents/${agentId}/conversation/status`;
    const requested = await asVisitor<Transcript>(visitor.visitorToken, 'POST', path, { status: 'HUMAN_REQUESTED' });
    expect(requested.body.status).toBe('HUMAN_REQUESTED');
    const resolved = await asVisitor<Transcript>(visitor.visitorToken, 'POST', path, { status: 'RESOLVED' });
    expect(resolved.body.status).toBe('RESOLVED');
    const types = (await parley.core.store.outbox.list({ workspaceId: ws.id }))
      .filter((event) => event.payload.conversationId === visitor.conversationId)
      .map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['human-requested', 'conversation-resolved']));
    expect((await asVisitor<ErrorBody>(visitor.visitorToken, 'POST', path, { status: 'UNRESOLVED' })).status).toBe(400);
  });

  it('follows the conversation live: a member’s reply with their name, the take-over and the resolution', async () => {
    const visitor = await ask('Is my parcel lost?');
    const stream = await follow(`${parley.url}/agents/${agentId}/conversation/events`, visitor.visitorToken);
    try {
      const replied = await parley.call('POST', `/conversations/${visitor.conversationId}/messages`, {
        key: member.accessToken,
        body: { text: 'Let me check that for you.' },
      });
      expect(replied.status).toBe(201);
      await parley.call('PATCH', `/conversations/${visitor.conversationId}`, { key: ws.key, body: { status: 'RESOLVED' } });
      const frames = await stream.frames.waitFor(4, 10_000);
      expect(frames).toEqual([
        {
          event: 'message',
          data: expect.objectContaining({ from: 'system', text: noticeText(handoffNotices.personJoined('Test person')), sender: null }),
        },
        { event: 'status', data: { status: 'UNRESOLVED', isAiEnabled: false } },
        {
          event: 'message',
          data: expect.objectContaining({
            from: 'human',
            text: 'Let me check that for you.',
            sender: { type: 'user', name: 'Test person', mine: false },
          }),
        },
        { event: 'status', data: { status: 'RESOLVED', isAiEnabled: false } },
      ]);
      // Nothing about assignment or reads, nor any other conversation, reaches the visitor.
      await ask('Someone else entirely');
      expect(JSON.stringify(stream.frames.items)).not.toContain('Someone else');
      expect(JSON.stringify(stream.frames.items)).not.toContain(member.memberId);
    } finally {
      stream.close();
    }
  });

  it('rates the agent’s answers of its own conversation only', async () => {
    const visitor = await ask('What are your opening hours?');
    const transcript = (await asVisitor<Transcript>(visitor.visitorToken, 'GET', `/agents/${agentId}/conversation`)).body;
    const answer = transcript.messages.find((m) => m.from === 'agent')!;
    const question = transcript.messages.find((m) => m.from === 'human')!;
    const path = `/agents/${agentId}/conversation/ratings`;
    expect((await asVisitor(visitor.visitorToken, 'POST', path, { messageId: answer.id, eval: 'GOOD' })).status).toBe(204);
    const stored = await parley.call<ConversationBody>('GET', `/conversations/${visitor.conversationId}`, { key: ws.key });
    expect(stored.body.messages.find((m) => m.id === answer.id)?.eval).toBe('GOOD');
    expect((await asVisitor(visitor.visitorToken, 'POST', path, { messageId: question.id, eval: 'BAD' })).status).toBe(404);
    const other = await ask('Another question');
    expect((await asVisitor(other.visitorToken, 'POST', path, { messageId: answer.id, eval: 'BAD' })).status).toBe(404);
    // The hosted widget's rating route: the same, by token or by visitor id.
    const evalAnswer = (token: string | null, body: object) => asVisitor<ErrorBody>(token, 'POST', '/conversations/eval-answer', body);
    expect((await evalAnswer(other.visitorToken, { messageId: answer.id, eval: 'bad' })).status).toBe(404);
    expect((await evalAnswer(null, { messageId: answer.id, eval: 'bad', visitorId: other.visitorId })).status).toBe(404);
    expect((await evalAnswer(null, { messageId: answer.id, eval: 'bad' })).status).toBe(404);
    expect((await evalAnswer(null, { messageId: question.id, eval: 'bad', visitorId: visitor.visitorId })).status).toBe(404);
    expect(
      (await parley.call<ConversationBody>('GET', `/conversations/${visitor.conversationId}`, { key: ws.key })).body.messages.find(
        (m) => m.id === answer.id,
      )?.eval,
    ).toBe('GOOD');
  });

  it('records the lead form as the conversation’s contact, checking e-mail and phone', async () => {
    const visitor = await ask('Please call me back');
    const path = `/agents/${agentId}/conversation/contact`;
    const saved = await asVisitor(visitor.visitorToken, 'PUT', path, {
      firstName: 'Lin',
      email: 'Lin@Example.com',
      phoneNumber: '+33 1 23 45 67 89',
    });
    expect(saved.status).toBe(204);
    const stored = await parley.call<ConversationBody>('GET', `/conversations/${visitor.conversationId}`, { key: ws.key });
    expect(stored.body.participantsContacts).toEqual([
      { id: expect.any(String), firstName: 'Lin', lastName: null, email: 'lin@example.com', phoneNumber: '+33 1 23 45 67 89' },
    ]);
    for (const body of [{ email: 'not an e-mail' }, { phoneNumber: 'call me maybe' }, { email: 5 }]) {
      expect((await asVisitor<ErrorBody>(visitor.visitorToken, 'PUT', path, body)).status).toBe(400);
    }
  });

  it('keeps the widget settings over their defaults and shows them without a key', async () => {
    const agent = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Styled', visibility: 'public' } })).body;
    expect(agent.widget).toMatchObject({ color: '#2563eb', position: 'right', humanHandoff: true, leadForm: { mode: 'off', email: 'required' } });
    const patch = (widget: unknown) => parley.call<AgentBody>('PATCH', `/agents/${agent.id}`, { key: ws.key, body: { widget } });
    await patch({ color: '#aa3300', position: 'left', suggestedQuestions: ['Where is my order?'], leadForm: { mode: 'after-first-answer' } });
    const changed = await patch({ leadForm: { phone: 'required' }, language: 'fr' });
    expect(changed.body.widget).toMatchObject({
      color: '#aa3300',
      position: 'left',
      language: 'fr',
      suggestedQuestions: ['Where is my order?'],
      leadForm: { mode: 'after-first-answer', name: 'optional', email: 'required', phone: 'required' },
    });
    for (const widget of [{ color: 'red' }, { language: 'de' }, { leadForm: { mode: 'always' } }, { avatarUrl: 'javascript:alert(1)' }]) {
      expect((await patch(widget)).status).toBe(400);
    }
    const shown = await parley.call<{ name: string; widget: AgentBody['widget'] }>('GET', `/agents/${agent.id}/widget`, { key: null });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ name: 'Styled', widget: { color: '#aa3300', language: 'fr' } });
    const hidden = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Private' } })).body.id;
    expect((await parley.call('GET', `/agents/${hidden}/widget`, { key: null })).status).toBe(401);
  });

  it('refuses pages of an origin the agent does not allow', async () => {
    const guarded = (
      await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { visibility: 'public', allowedOrigins: ['https://shop.example'] } })
    ).body.id;
    const answered = await parley.call<AnswerBody>('POST', `/agents/${guarded}/query`, {
      key: null,
      body: { query: 'hi' },
      headers: { origin: 'https://shop.example' },
    });
    expect(answered.status).toBe(200);
    const token = answered.body.visitorToken;
    const path = `/agents/${guarded}/conversation`;
    expect((await asVisitor(token, 'GET', path, undefined, { origin: 'https://shop.example' })).status).toBe(200);
    expect((await asVisitor<ErrorBody>(token, 'GET', path, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await asVisitor<ErrorBody>(null, 'GET', `/agents/${guarded}/widget`, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    // The hosted widget's reads of the agent and of the conversation.
    expect((await asVisitor<ErrorBody>(null, 'GET', `/agents/${guarded}`, undefined, { origin: 'https://evil.example' })).status).toBe(403);
    const history = `/conversations/${answered.body.conversationId}`;
    expect((await asVisitor(token, 'GET', history, undefined, { origin: 'https://shop.example' })).status).toBe(200);
    expect((await asVisitor<ErrorBody>(token, 'GET', history, undefined, { origin: 'https://evil.example' })).status).toBe(403);
  });
});
