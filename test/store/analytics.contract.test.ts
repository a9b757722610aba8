import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { REOPEN_ON_HUMAN } from '../../src/domain/conversations/conversation-rules.js';
import type {
  AnswerSourceRecord,
  AgentRecord,
  AnalyticsScope,
  ConversationStatus,
  MessageEval,
  NewConversation,
  NewKnowledgeGap,
  NewMessage,
  WorkspaceRecord,
} from '../../src/store/store.js';
import {
  answerSourceRecord,
  agentRecord,
  at,
  createConversation,
  createDatastore,
  datasourceRecord,
  jobRecord,
  messageRecord,
  twoWorkspaces,
  useScratchStore,
} from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';
import { questionKey } from '../../src/text/question-key.js';

const DAY = 86_400;

/** Seconds after 2030-01-01T00:00Z of each conversation's start: days 1 to 3 are the range, day 0 and day 4 outside. */
const DAY1 = 0;
const DAY2 = DAY;
const DAY3 = 2 * DAY;
const DAY4 = 3 * DAY;

describe.each(STORE_KINDS)('the analytics port of the %s store', (kind) => {
  const store = useScratchStore(kind);

  let a: WorkspaceRecord;
  let b: WorkspaceRecord;
  /** Two agents of workspace A. */
  let x: AgentRecord;
  let y: AgentRecord;
  let handbookId: string;
  let pricesId: string;
  let datastoreId: string;
  /** A datasource cited and deleted since (no row): its id sorts after the others'. */
  const deletedId = 'zz-deleted-datasource';
  const conversations: Record<string, string> = {};

  /** The range of the seeded figures: 2030-01-01 to 2030-01-03, both whole days. */
  const range = (overrides: Partial<AnalyticsScope> = {}): AnalyticsScope => ({
    workspaceId: a.id,
    from: at(DAY1),
    to: at(DAY4),
    ...overrides,
  });

  const source = (datasourceId: string, name: string) => answerSourceRecord({ datasourceId, datasourceName: name, text: '…' });

  async function conversation(
    workspaceId: string,
    name: string,
    fields: Partial<NewConversation>,
    messages: (Partial<NewMessage> & { eval?: MessageEval; gap?: string })[],
    status?: ConversationStatus,
  ): Promise<void> {
    const created = await createConversation(store(), workspaceId, fields);
    conversations[name] = created.id;
    for (const { eval: rating, gap, ...message } of messages) {
      const record = messageRecord(workspaceId, created.id, message);
      const knowledgeGap: NewKnowledgeGap | undefined =
        gap === undefined
          ? undefined
          : {
              id: newId(),
              workspaceId,
              agentId: created.agentId,
              conversationId: created.id,
              messageId: record.id,
              question: gap,
              questionKey: questionKey(gap),
              reason: 'low_score',
              bestScore: 0.2,
              createdAt: record.createdAt,
            };
      await store().conversations.appendMessage(record, { gap: knowledgeGap });
      if (rating !== undefined) await store().messages.rate(workspaceId, record.id, rating);
    }
    if (status !== undefined) await store().conversations.update(workspaceId, created.id, { status }, {}, at(DAY4 + DAY));
  }

  const visitor = (seconds: number, text = 'a question'): Partial<NewMessage> => ({ from: 'human', text, createdAt: at(seconds) });
  const member = (seconds: number): Partial<NewMessage> => ({
    from: 'human',
    text: 'a person answers',
    memberId: 'member-1',
    createdAt: at(seconds),
  });
  const agent = (seconds: number, sources: AnswerSourceRecord[] = []): Partial<NewMessage> => ({
    from: 'agent',
    text: 'an answer',
    sources,
    createdAt: at(seconds),
  });

  beforeAll(async () => {
    [a, b] = await twoWorkspaces(store());
    x = agentRecord(a.id, { name: 'X' });
    y = agentRecord(a.id, { name: 'Y' });
    await store().agents.create(x);
    await store().agents.create(y);
    datastoreId = (await createDatastore(store(), a.id)).id;
    const handbook = datasourceRecord(a.id, datastoreId, { name: 'Handbook.txt' });
    const prices = datasourceRecord(a.id, datastoreId, { name: 'Prices.pdf' });
    await store().datasources.create(handbook, jobRecord({ workspaceId: a.id }));
    await store().datasources.create(prices, jobRecord({ workspaceId: a.id }));
    [handbookId, pricesId] = [handbook.id, prices.id];
    const website = { agentId: x.id, channel: 'website' };

    // Started the day before the range; its answer, written in the range, counts among the answers.
    await conversation(a.id, 'c0', { ...website, createdAt: at(-100) }, [
      visitor(40),
      { ...agent(50, [source(handbookId, 'Handbook.txt')]), eval: 'BAD', gap: 'what is your REFUND policy' },
    ]);
    // A member replies 60 s after the visitor's first message.
    await conversation(
      a.id,
      'c1',
      { ...website, createdAt: at(DAY1) },
      [
        { ...visitor(10), eval: 'GOOD' },
        { ...agent(20, [source(handbookId, 'Old name.txt'), source(pricesId, 'Prices.pdf')]), eval: 'GOOD' },
        member(70),
        visitor(100),
      ],
      'RESOLVED',
    );
    // 120 s; the system notice is no message of the conversation's.
    await conversation(
      a.id,
      'c2',
      { ...website, createdAt: at(DAY1 + 3600) },
      [
        visitor(3605),
        { ...agent(3606, [source(handbookId, 'Handbook.txt')]), eval: 'BAD', gap: 'What is your refund policy?' },
        { from: 'system', text: 'The agent was switched off', createdAt: at(3607) },
        member(3725),
      ],
      'HUMAN_REQUESTED',
    );
    // A member wrote first; the wait runs from the visitor's first message: 30.5 s.
    await conversation(a.id, 'c3', { agentId: y.id, channel: 'api', createdAt: at(DAY2 + 100) }, [
      member(DAY2 + 100),
      visitor(DAY2 + 200),
      member(DAY2 + 230.5),
    ]);
    await conversation(
      a.id,
      'c4',
      { agentId: y.id, channel: 'api', createdAt: at(DAY2 + 500) },
      [visitor(DAY2 + 510), { ...agent(DAY2 + 511, [source(deletedId, 'old.pdf')]), eval: 'GOOD', gap: 'What is your refund policy?' }],
      'RESOLVED',
    );
    await conversation(a.id, 'c5', { ...website, createdAt: at(DAY3 + 10) }, []);
    // The day after the range: nothing of it counts.
    await conversation(a.id, 'c6', { ...website, createdAt: at(DAY4 + 1) }, [
      visitor(DAY4 + 10),
      { ...agent(DAY4 + 11, [source(handbookId, 'Handbook.txt')]), eval: 'GOOD', gap: 'What is your refund policy?' },
      member(DAY4 + 20),
    ]);
    // Another workspace, same times, citing the same datasource id: none of it counts for A.
    await conversation(
      b.id,
      'b1',
      { agentId: null, channel: 'website', createdAt: at(DAY1 + 5) },
      [
        visitor(DAY1 + 6),
        { ...agent(DAY1 + 7, [source(handbookId, 'Handbook.txt')]), eval: 'BAD', gap: 'What is your refund policy?' },
        member(DAY1 + 8),
      ],
      'RESOLVED',
    );
  });

  describe('conversation figures (conversations started in the range)', () => {
    it('counts conversations per UTC day and channel', async () => {
      expect(await store().analytics.conversationsPerDay(range())).toEqual([
        { day: '2030-01-01', channel: 'website', conversations: 2 },
        { day: '2030-01-02', channel: 'api', conversations: 2 },
        { day: '2030-01-03', channel: 'website', conversations: 1 },
      ]);
      expect(await store().analytics.conversationsPerDay(range({ agentId: x.id }))).toEqual([
        { day: '2030-01-01', channel: 'website', conversations: 2 },
        { day: '2030-01-03', channel: 'website', conversations: 1 },
      ]);
      expect(await store().analytics.conversationsPerDay(range({ from: at(DAY2), to: at(DAY3) }))).toEqual([
        { day: '2030-01-02', channel: 'api', conversations: 2 },
      ]);
    });

    it('counts statuses and messages, and takes the median wait for a first member reply', async () => {
      expect(await store().analytics.conversationFigures(range())).toEqual({
        conversations: 5,
        resolved: 2,
        humanRequested: 1,
        messages: 12,
        humanReplied: 3,
        // 30.5, 60 and 120 seconds.
        medianSecondsToHumanReply: 60,
      });
    });

    it('takes the mean of the two middle waits of an even count, and narrows by agent and channel', async () => {
      expect(await store().analytics.conversationFigures(range({ agentId: x.id }))).toEqual({
        conversations: 3,
        resolved: 1,
        humanRequested: 1,
        messages: 7,
        humanReplied: 2,
        medianSecondsToHumanReply: 90,
      });
      expect(await store().analytics.conversationFigures(range({ channel: 'api' }))).toEqual({
        conversations: 2,
        resolved: 1,
        humanRequested: 0,
        messages: 5,
        humanReplied: 1,
        medianSecondsToHumanReply: 30.5,
      });
    });

    it('has zeros and no median where nothing happened', async () => {
      const empty = {
        conversations: 0,
        resolved: 0,
        humanRequested: 0,
        messages: 0,
        humanReplied: 0,
        medianSecondsToHumanReply: null,
      };
      expect(await store().analytics.conversationFigures(range({ from: at(DAY4 + DAY), to: at(DAY4 + 2 * DAY) }))).toEqual(empty);
      expect(await store().analytics.conversationFigures(range({ channel: 'mail' }))).toEqual(empty);
      expect(await store().analytics.conversationsPerDay(range({ channel: 'mail' }))).toEqual([]);
    });
  });

  describe('the status history and the playground', () => {
    it('counts every conversation that was ever human requested, whichever write changed its status, the playground’s when asked', async () => {
      const [w] = await twoWorkspaces(store());
      const scope: AnalyticsScope = { workspaceId: w.id, from: at(DAY1), to: at(DAY4) };
      const started = (fields: Partial<NewConversation> = {}) => createConversation(store(), w.id, { createdAt: at(DAY1 + 10), ...fields });
      const setStatus = (id: string, status: ConversationStatus, seconds: number) =>
        store().conversations.update(w.id, id, { status }, {}, at(DAY1 + seconds));

      // Started waiting for a person, resolved since.
      await setStatus((await started({ status: 'HUMAN_REQUESTED' })).id, 'RESOLVED', 20);
      // Asked for a person, resolved, then reopened by the visitor writing again.
      const reopened = await started();
      await setStatus(reopened.id, 'HUMAN_REQUESTED', 20);
      await setStatus(reopened.id, 'RESOLVED', 30);
      await store().conversations.appendMessage(messageRecord(w.id, reopened.id, visitor(DAY1 + 40)), { transition: REOPEN_ON_HUMAN });
      expect((await store().conversations.find(w.id, reopened.id))?.status).toBe('UNRESOLVED');
      // Asked and resolved in bulk.
      await started({ channel: 'mail' });
      await store().conversations.bulkUpdateStatus(w.id, { channel: 'mail' }, 'HUMAN_REQUESTED', at(DAY1 + 20));
      await store().conversations.bulkUpdateStatus(w.id, { channel: 'mail' }, 'RESOLVED', at(DAY1 + 30));
      // Resolved without asking.
      await setStatus((await started()).id, 'RESOLVED', 20);
      // The team's test in the playground.
      await setStatus((await started({ channel: 'dashboard', playground: true })).id, 'HUMAN_REQUESTED', 20);

      expect(await store().analytics.conversationFigures(scope)).toMatchObject({ conversations: 4, humanRequested: 3, resolved: 3 });
      expect(await store().analytics.conversationFigures({ ...scope, includePlayground: true })).toMatchObject({
        conversations: 5,
        humanRequested: 4,
        resolved: 3,
      });
      expect(await store().analytics.channelsInRange({ ...scope, channel: 'mail' })).toEqual(['api', 'mail']);
      expect(await store().analytics.channelsInRange({ ...scope, includePlayground: true })).toEqual(['api', 'dashboard', 'mail']);
      expect(await store().analytics.channelsInRange({ ...scope, from: at(DAY4), to: at(DAY4 + DAY) })).toEqual([]);
    });
  });

  describe('answer figures (agent answers written in the range)', () => {
    it('counts the ratings of agent answers only', async () => {
      expect(await store().analytics.answerRatings(range())).toEqual({ good: 2, bad: 2 });
      expect(await store().analytics.answerRatings(range({ agentId: x.id }))).toEqual({ good: 1, bad: 2 });
      expect(await store().analytics.answerRatings(range({ channel: 'api' }))).toEqual({ good: 1, bad: 0 });
      expect(await store().analytics.answerRatings(range({ channel: 'mail' }))).toEqual({ good: 0, bad: 0 });
    });

    it('ranks the datasources cited, by their current name, a deleted one by the name it was cited under', async () => {
      expect(await store().analytics.citedDatasources(range(), 10)).toEqual([
        { datasourceId: handbookId, name: 'Handbook.txt', datastoreId, citations: 3 },
        { datasourceId: pricesId, name: 'Prices.pdf', datastoreId, citations: 1 },
        { datasourceId: deletedId, name: 'old.pdf', datastoreId: null, citations: 1 },
      ]);
      expect(await store().analytics.citedDatasources(range(), 2)).toHaveLength(2);
      expect(await store().analytics.citedDatasources(range({ channel: 'api' }), 10)).toEqual([
        { datasourceId: deletedId, name: 'old.pdf', datastoreId: null, citations: 1 },
      ]);
      expect(await store().analytics.citedDatasources(range({ to: at(DAY1) }), 10)).toEqual([]);
    });

    it('groups knowledge gaps by agent and question, the most asked first, with the latest wording', async () => {
      const page = await store().analytics.knowledgeGaps(range(), 10);
      expect(page).toEqual({
        total: 2,
        groups: [
          {
            questionKey: 'what is your refund policy',
            question: 'What is your refund policy?',
            agentId: x.id,
            count: 2,
            firstAskedAt: at(50),
            lastAskedAt: at(3606),
            conversationId: conversations.c2,
          },
          {
            questionKey: 'what is your refund policy',
            question: 'What is your refund policy?',
            agentId: y.id,
            count: 1,
            firstAskedAt: at(DAY2 + 511),
            lastAskedAt: at(DAY2 + 511),
            conversationId: conversations.c4,
          },
        ],
      });
      expect(await store().analytics.knowledgeGaps(range(), 1)).toEqual({ total: 2, groups: [page.groups[0]] });
      expect(await store().analytics.knowledgeGaps(range({ channel: 'api' }), 10)).toEqual({ total: 1, groups: [page.groups[1]] });
      expect(await store().analytics.knowledgeGaps(range({ channel: 'mail' }), 10)).toEqual({ total: 0, groups: [] });
    });
  });

  it('records a knowledge gap with its answer or not at all', async () => {
    const [c] = await twoWorkspaces(store());
    const conversation = await createConversation(store(), c.id, { createdAt: at(DAY1) });
    const taken = messageRecord(c.id, conversation.id, { from: 'agent', createdAt: at(DAY1 + 1) });
    await store().conversations.appendMessage(taken);
    const gap = (messageId: string): NewKnowledgeGap => ({
      id: newId(),
      workspaceId: c.id,
      agentId: null,
      conversationId: conversation.id,
      messageId,
      question: 'Where are you?',
      questionKey: 'where are you',
      reason: 'no_passage',
      bestScore: null,
      createdAt: at(DAY1 + 2),
    });
    // A message id taken already: the answer is refused, and its gap with it.
    const clash = messageRecord(c.id, conversation.id, { id: taken.id, from: 'agent', createdAt: at(DAY1 + 2) });
    await expect(store().conversations.appendMessage(clash, { gap: gap(taken.id) })).rejects.toThrow();
    const scope = { workspaceId: c.id, from: at(DAY1), to: at(DAY2) };
    expect(await store().analytics.knowledgeGaps(scope, 10)).toEqual({ total: 0, groups: [] });

    const answer = messageRecord(c.id, conversation.id, { from: 'agent', createdAt: at(DAY1 + 2) });
    await store().conversations.appendMessage(answer, { gap: gap(answer.id) });
    expect((await store().analytics.knowledgeGaps(scope, 10)).groups).toMatchObject([{ question: 'Where are you?', count: 1 }]);
  });
});
