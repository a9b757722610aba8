import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, childEnv, waitForOutput } from '../support/cli.js';
import { EventStreamClient } from '../support/event-stream.js';
import { startTestParley, type SignedInMember, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS, createScratchStore, type ScratchStore } from '../support/stores.js';
import type { AgentBody, ErrorBody } from '../support/bodies.js';
import { seedConversation } from './conversations-seed.js';

const WAIT_MS = 10_000;

describe.each(STORE_KINDS)('GET /events/stream on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let member: SignedInMember;
  let agentId: string;
  const streams: EventStreamClient[] = [];

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    member = await parley.newMember(ws.id, 'member');
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Live' } })).body.id;
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
  });

  const open = async (options: Partial<Parameters<typeof EventStreamClient.open>[1]> = {}, base = parley.url) => {
    const stream = await EventStreamClient.open(base, { key: ws.key, ...options });
    streams.push(stream);
    return stream;
  };
  const reply = (conversationId: string, text: string, workspace = ws, memberId = member.memberId) =>
    parley.call('POST', `/conversations/${conversationId}/messages`, { key: workspace.key, body: { text, memberId } });

  it('sends each new event of the workspace once, in order, with its id and the webhook envelope', async () => {
    const stream = await open();
    expect(stream.resumed).toBe(true);
    const seeded = await seedConversation(parley, ws.id, {
      agentId,
      messages: [
        ['human', 'first'],
        ['agent', 'second'],
      ],
    });
    const events = await stream.events.waitFor(3, WAIT_MS);
    expect(events.map((event) => event.type)).toEqual(['conversation.created', 'message.created', 'message.created']);
    for (const event of events) {
      expect(event.envelope).toMatchObject({ id: event.id, type: event.type, workspaceId: ws.id, data: { conversationId: seeded.id } });
    }
    expect(events.slice(1).map((event) => event.type === 'message.created' && event.envelope.data.message.text)).toEqual(['first', 'second']);
    const stored = (await parley.core.store.outbox.list({ workspaceId: ws.id })).slice(-3);
    expect(events.map((event) => event.id)).toEqual(stored.map((event) => event.id));
  });

  it('serves a member’s access token, and headers that keep proxies from buffering', async () => {
    const response = await fetch(`${parley.url}/events/stream`, { headers: { authorization: `Bearer ${member.accessToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    await response.body?.cancel();
  });

  it('resumes right after Last-Event-ID (or since), and starts from now when the id is unknown', async () => {
    const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'resume me']] });
    const [first, ...rest] = (await parley.core.store.outbox.list({ workspaceId: ws.id })).filter((e) => e.payload.conversationId === seeded.id);
    await reply(seeded.id, 'later reply');
    const expected = (await parley.core.store.outbox.list({ workspaceId: ws.id })).filter((e) => e.seq > first!.seq).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(rest.length);

    const byHeader = await open({ lastEventId: first!.id });
    const bySince = await open({ since: first!.id });
    expect(byHeader.resumed).toBe(true);
    expect((await byHeader.events.waitFor(expected.length, WAIT_MS)).map((e) => e.id)).toEqual(expected);
    expect((await bySince.events.waitFor(expected.length, WAIT_MS)).map((e) => e.id)).toEqual(expected);
    // The backlog comes before `ready`, live events after it.
    expect(byHeader.frames.indexOf('ready')).toBe(expected.length);

    const unknown = await open({ lastEventId: 'evt_never_written' });
    expect(unknown.resumed).toBe(false);
    await reply(seeded.id, 'after the unknown id');
    const [next] = await unknown.events.waitFor(1, WAIT_MS);
    expect(next!.type).toBe('message.created');
    expect(unknown.events.items.every((event) => !expected.includes(event.id))).toBe(true);
  });

  it('filters by types and refuses an unknown type', async () => {
    const stream = await open({ types: 'conversation.updated,conversation-resolved' });
    const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'filter me']] });
    await parley.call('PATCH', `/conversations/${seeded.id}`, { key: ws.key, body: { status: 'RESOLVED' } });
    const events = await stream.events.waitFor(2, WAIT_MS);
    expect(events.map((event) => event.type).sort()).toEqual(['conversation-resolved', 'conversation.updated']);
    const refused = await parley.call<ErrorBody>('GET', '/events/stream?types=message.created,bogus', { key: ws.key });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toContainEqual(expect.objectContaining({ field: 'querystring.types' }));
  });

  it('never carries another workspace’s events, live or when resuming after one of them', async () => {
    const other = await parley.newWorkspace();
    const otherMember = await parley.newMember(other.id);
    const mine = await open();
    const theirs = await open({ key: other.key });
    const secret = await seedConversation(parley, other.id, { messages: [['human', 'secret of the other workspace']] });
    await reply(secret.id, 'their reply', other, otherMember.memberId);
    const ours = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'ours']] });
    await theirs.events.waitFor(3, WAIT_MS);
    // Both of ours (created, then its message) are in before the resume below, so none is still on its way to this workspace's reader.
    const [created] = await mine.events.waitFor(2, WAIT_MS);
    expect(created!.envelope.data).toMatchObject({ conversationId: ours.id });
    expect(JSON.stringify(mine.events.items)).not.toContain('secret of the other workspace');
    expect(theirs.events.items.every((event) => event.envelope.workspaceId === other.id)).toBe(true);

    const [foreign] = await parley.core.store.outbox.list({ workspaceId: other.id, limit: 1 });
    const resumedOnForeign = await open({ lastEventId: foreign!.id });
    expect(resumedOnForeign.resumed).toBe(false);
    expect(resumedOnForeign.events.items).toEqual([]);
  });

  // Many streams and a burst of concurrent writers; the figures at scale are the bench's (`--only live`).
  it('keeps 40 streams on one process connected through a burst of 400 events from four writers', async () => {
    const burst = await parley.newWorkspace();
    const many = await Promise.all(Array.from({ length: 40 }, () => open({ key: burst.key })));
    const seeded = await seedConversation(parley, burst.id);
    const { conversations } = parley.core.services;
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < 100; i += 1) await conversations.messages.add(burst.id, seeded.id, { from: 'agent', text: `burst ${writer}-${i}` });
      }),
    );
    // Four writers at once: the stream's order is commit order (seq), not the order of the writers' clocks.
    const stored = (await parley.core.store.outbox.list({ workspaceId: burst.id })).sort((x, y) => x.seq - y.seq).map((event) => event.id);
    expect(stored).toHaveLength(401);
    for (const stream of many) {
      expect((await stream.events.waitFor(401, 60_000)).map((event) => event.id)).toEqual(stored);
    }
    expect(parley.core.services.eventStreams.openStreams).toBeGreaterThanOrEqual(40);
    for (const stream of many) stream.close();
  }, 120_000);
});

describe.each(STORE_KINDS)('event streams across restarts and processes on %s', (kind) => {
  let scratch: ScratchStore;
  beforeAll(async () => {
    scratch = await createScratchStore(kind);
  });
  afterAll(() => scratch.drop());

  it('resumes after a server restart with every event once and in order', async () => {
    const first = await startTestParley(kind, { scratch });
    const ws = await first.newWorkspace();
    const stream = await EventStreamClient.open(first.url, { key: ws.key });
    const seeded = await seedConversation(first, ws.id, { messages: [['human', 'before the restart']] });
    const [, lastSeen] = await stream.events.waitFor(2, WAIT_MS);
    // Written while nobody follows: the stream is cut, and the server stops.
    stream.close();
    await first.core.services.conversations.messages.add(ws.id, seeded.id, { from: 'agent', text: 'missed 1' });
    await first.core.services.conversations.messages.add(ws.id, seeded.id, { from: 'agent', text: 'missed 2' });
    await first.close();

    const second = await startTestParley(kind, { scratch });
    try {
      const resumed = await EventStreamClient.open(second.url, { key: ws.key, lastEventId: lastSeen!.id });
      await second.core.services.conversations.messages.add(ws.id, seeded.id, { from: 'agent', text: 'after the restart' });
      const events = await resumed.events.waitFor(3, WAIT_MS);
      resumed.close();
      expect(events.map((event) => event.type === 'message.created' && event.envelope.data.message.text)).toEqual([
        'missed 1',
        'missed 2',
        'after the restart',
      ]);
      expect(new Set(events.map((event) => event.id)).size).toBe(3);
    } finally {
      await second.close();
    }
  });
});

describe.runIf(STORE_KINDS.includes('postgres'))('event streams across parley serve processes on one PostgreSQL', () => {
  let scratch: ScratchStore;
  beforeAll(async () => {
    scratch = await createScratchStore('postgres');
  });
  afterAll(() => scratch.drop());

  it('wakes a stream held by another parley serve process with an event written here (LISTEN/NOTIFY)', async () => {
    const here = await startTestParley('postgres', { scratch });
    let child: ChildProcess | undefined;
    try {
      const a = await here.newWorkspace();
      const b = await here.newWorkspace();
      const member = await here.newMember(a.id);
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
        cwd: ROOT,
        env: childEnv({ ...scratch.env, PORT: '0' }),
      });
      const [, otherUrl] = await waitForOutput(child, /API base URL:\s+(http:\/\/\S+)/, 60_000);
      const onOther = await EventStreamClient.open(otherUrl!, { key: a.key });
      const bOnOther = await EventStreamClient.open(otherUrl!, { key: b.key });
      const seeded = await seedConversation(here, a.id, { messages: [['human', 'written on process one']] });
      const written = Date.now();
      const reply = await here.call('POST', `/conversations/${seeded.id}/messages`, {
        key: a.key,
        body: { text: 'reply', memberId: member.memberId },
      });
      expect(reply.status).toBe(201);
      // conversation.created, the visitor's message, the joined notice, the take-over, the reply (the read follows).
      const events = await onOther.events.waitFor(5, 20_000);
      // NOTIFY, not the 30 s safety poll, brought them (the bound leaves room for a busy machine).
      expect(Date.now() - written).toBeLessThan(20_000);
      const stored = (await here.core.store.outbox.list({ workspaceId: a.id })).sort((x, y) => x.seq - y.seq).map((event) => event.id);
      expect(events.map((event) => event.type)).toEqual([
        'conversation.created',
        'message.created',
        'message.created',
        'conversation.updated',
        'message.created',
      ]);
      expect(events.map((event) => event.id)).toEqual(stored.slice(0, 5));
      expect(bOnOther.events.items).toEqual([]);
      onOther.close();
      bOnOther.close();
    } finally {
      child?.kill('SIGTERM');
      await here.close();
    }
  }, 90_000);
});
