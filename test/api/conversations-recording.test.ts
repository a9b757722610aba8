import { describe, expect, it } from 'vitest';
import { ParleyError } from '../../src/errors.js';
import type { ConversationUseCases } from '../../src/domain/conversations/conversation-use-cases.js';
import type { TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AgentBody, ConversationBody } from '../support/bodies.js';
import { answerSourceRecord } from '../support/store-contract.js';

/** What the agent query calls: the intake's start, then messages.add for the question and the answer. */
describe.each(STORE_KINDS)('recording exchanges through the conversation service on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentId: string;
  let conversations: ConversationUseCases;

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Recorder' } })).body.id;
    conversations = parley.core.services.conversations;
  });

  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      if (ParleyError.isInstance(error)) return error.code;
      throw error;
    }
    return 'resolved';
  };

  it('creates a conversation and a visitor when no ids are given', async () => {
    const { conversation, visitorId, created } = await conversations.intake.start(ws.id, { agentId, channel: 'api' });
    expect(created).toBe(true);
    expect(visitorId).toEqual(expect.any(String));
    expect(conversation).toMatchObject({
      workspaceId: ws.id,
      agentId,
      channel: 'api',
      status: 'UNRESOLVED',
      isAiEnabled: true,
      title: '',
      metadata: {},
      visitorId,
    });
  });

  it('creates the conversation and visitor with ids the client made up, then finds them again', async () => {
    const ids = { conversationId: `client-conv-${kind}-${Date.now()}`, visitorId: `client-visitor-${kind}-${Date.now()}` };
    const first = await conversations.intake.start(ws.id, { ...ids, agentId, channel: 'website', channelExternalId: 'page-1' });
    expect(first).toMatchObject({ created: true, visitorId: ids.visitorId, conversation: { id: ids.conversationId, channelExternalId: 'page-1' } });
    const again = await conversations.intake.start(ws.id, { ...ids, agentId, channel: 'website' });
    expect(again.created).toBe(false);
    expect(again.conversation).toEqual(first.conversation);
  });

  it('keeps ids inside their workspace: another workspace’s id makes a conversation and visitor of our own', async () => {
    const other = await parley.newWorkspace();
    const theirs = await conversations.intake.start(other.id, { agentId: null, channel: 'api' });
    const ours = await conversations.intake.start(ws.id, {
      conversationId: theirs.conversation.id,
      visitorId: theirs.visitorId,
      agentId,
      channel: 'website',
    });
    expect(ours).toMatchObject({ created: true, visitorId: theirs.visitorId, conversation: { workspaceId: ws.id, agentId, channel: 'website' } });
    expect(await codeOf(conversations.intake.start(ws.id, { agentId: 'no-such-agent', channel: 'api' }))).toBe('NOT_FOUND');
    // Their conversation is untouched.
    expect(await parley.core.store.conversations.find(other.id, theirs.conversation.id)).toEqual(theirs.conversation);
  });

  it('stores channel email as mail', async () => {
    const { conversation } = await conversations.intake.start(ws.id, { agentId, channel: 'email' });
    expect(conversation.channel).toBe('mail');
  });

  it('merges contacts by e-mail, ignoring case, and links them to the visitor and conversation', async () => {
    const first = await conversations.intake.start(ws.id, {
      agentId,
      channel: 'form',
      contact: { firstName: 'Katherine', email: 'KJ@Example.com ' },
    });
    const second = await conversations.intake.start(ws.id, {
      agentId,
      channel: 'form',
      contact: { lastName: 'Johnson', email: 'kj@example.com', phoneNumber: '555-0100' },
    });
    expect(second.conversation.contactId).toBe(first.conversation.contactId);
    const [contact] = await parley.core.store.participants.contacts(ws.id, [second.conversation.contactId!]);
    expect(contact).toMatchObject({ firstName: 'Katherine', lastName: 'Johnson', email: 'kj@example.com', phoneNumber: '555-0100' });

    // A visitor who identifies later gets the contact on their existing conversation too.
    const anonymous = await conversations.intake.start(ws.id, { agentId, channel: 'website' });
    expect(anonymous.conversation.contactId).toBeNull();
    const identified = await conversations.intake.start(ws.id, {
      conversationId: anonymous.conversation.id,
      visitorId: anonymous.visitorId,
      agentId,
      channel: 'website',
      contact: { email: 'kj@example.com' },
    });
    expect(identified.created).toBe(false);
    expect(identified.conversation.contactId).toBe(contact!.id);
    const [visitor] = await parley.core.store.participants.visitors(ws.id, [anonymous.visitorId]);
    expect(visitor!.contactId).toBe(contact!.id);
  });

  it('adds messages in order, names the conversation after the first question and keeps the answer’s details', async () => {
    const { conversation, visitorId } = await conversations.intake.start(ws.id, { agentId, channel: 'api' });
    const question = await conversations.messages.add(ws.id, conversation.id, {
      from: 'human',
      text: '  What are your opening hours?\nI mean on Sundays.',
      visitorId,
    });
    expect(question.message).toMatchObject({ from: 'human', read: false, eval: null, visitorId, sources: [], usage: null });
    expect(question.conversation.title).toBe('What are your opening hours?');
    expect(Date.parse(question.conversation.updatedAt)).toBeGreaterThanOrEqual(Date.parse(conversation.updatedAt));

    const sources = [answerSourceRecord({ chunkId: 'c1', datasourceId: 'd1', pageNumber: 2, text: 'Open 9 to 5' })];
    const usage = { promptTokens: 120, completionTokens: 12, totalTokens: 132 };
    const answer = await conversations.messages.add(ws.id, conversation.id, {
      from: 'agent',
      text: 'From 9 to 5.',
      sources,
      usage,
      model: 'llm_b_mini',
    });
    expect(answer.message).toMatchObject({ from: 'agent', read: true, sources, usage, model: 'llm_b_mini' });
    const stored = await parley.core.store.messages.find(ws.id, answer.message.id);
    expect(stored).toEqual(answer.message);

    // A later question does not rename it.
    const later = await conversations.messages.add(ws.id, conversation.id, { from: 'human', text: 'And on holidays?' });
    expect(later.conversation.title).toBe('What are your opening hours?');

    const history = await conversations.views.messages(ws.id, conversation.id);
    expect(history.map((message) => message.id)).toEqual([question.message.id, answer.message.id, later.message.id]);
    const detail = (await parley.call<ConversationBody>('GET', `/conversations/${conversation.id}`, { key: ws.key })).body;
    // The record answers them newest first.
    expect(detail.messages.map((m) => m.id)).toEqual(history.map((message) => message.id).reverse());
    // The API shows a source by the hosted API's snake_case field names, those left out that the passage does not have.
    expect(detail.messages[1]?.sources).toEqual([
      {
        chunk_id: 'c1',
        datasource_id: 'd1',
        datasource_name: 'Handbook.txt',
        datasource_type: 'file',
        source_url: null,
        page_number: 2,
        score: 0.9,
        text: 'Open 9 to 5',
      },
    ]);
  });

  it('shortens a long first question for the title', async () => {
    const { conversation } = await conversations.intake.start(ws.id, { agentId, channel: 'api' });
    const { conversation: named } = await conversations.messages.add(ws.id, conversation.id, { from: 'human', text: 'x'.repeat(300) });
    expect(named.title).toHaveLength(80);
    expect(named.title.endsWith('…')).toBe(true);
  });

  it('refuses a message for an unknown conversation (NOT_FOUND) or another workspace’s (FORBIDDEN)', async () => {
    expect(await codeOf(conversations.messages.add(ws.id, 'no-such-conversation', { from: 'human', text: 'hi' }))).toBe('NOT_FOUND');
    const other = await parley.newWorkspace();
    const theirs = await conversations.intake.start(other.id, { agentId: null, channel: 'api' });
    expect(await codeOf(conversations.messages.add(ws.id, theirs.conversation.id, { from: 'human', text: 'hi' }))).toBe('FORBIDDEN');
    expect(await conversations.views.messages(other.id, theirs.conversation.id)).toEqual([]);
  });
});
