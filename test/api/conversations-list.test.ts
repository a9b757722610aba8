import { describe, expect, it } from 'vitest';
import type { ApiResponse, TestParley, Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { STORE_KINDS } from '../support/stores.js';
import { pause, seedConversation } from './conversations-seed.js';
import { detailFields, type AgentBody, type ErrorBody, type ListedConversationBody, type SimplifiedConversationBody } from '../support/bodies.js';

describe.each(STORE_KINDS)('GET /user-conversations on %s', (kind) => {
  let parley: TestParley;
  let ws: Workspace;
  let agentA: AgentBody;
  let agentB: AgentBody;
  /** Seeded in this order, a few milliseconds apart. */
  let ids: { ada: string; billing: string; mail: string; quiet: string };

  parleyTest.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    ws = await parley.newWorkspace();
    agentA = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Agent A', handle: 'agent-a' } })).body;
    agentB = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Agent B' } })).body;
    const ada = await seedConversation(parley, ws.id, {
      agentId: agentA.id,
      channel: 'website',
      channelExternalId: 'ext-ada',
      contact: { firstName: 'Ada', lastName: 'Lovelace', email: 'Ada@Example.com', phoneNumber: '+44 20 7946 0000' },
      messages: [
        ['human', 'How do I reset my PASSWORD?'],
        ['agent', 'Use the reset link.'],
      ],
    });
    await pause(5);
    const billing = await seedConversation(parley, ws.id, {
      agentId: agentB.id,
      channel: 'api',
      messages: [['human', 'Billing: is 100% off_sale real?']],
    });
    await pause(5);
    const mail = await seedConversation(parley, ws.id, {
      channel: 'email',
      channelExternalId: 'ext-mail',
      messages: [['human', 'Hello from the inbox']],
    });
    await pause(5);
    const quiet = await seedConversation(parley, ws.id, { agentId: agentA.id, channel: 'messenger_a' });
    ids = { ada: ada.id, billing: billing.id, mail: mail.id, quiet: quiet.id };
    // Another workspace's conversations never show.
    const other = await parley.newWorkspace();
    await seedConversation(parley, other.id, { channel: 'website', messages: [['human', 'How do I reset my password?']] });
  });

  /** List records, or simplified ones when the query asks for them (`T`). */
  const list = async <T = ListedConversationBody>(query = '') => {
    const response = await parley.call<T[]>('GET', `/user-conversations${query}`, { key: ws.key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };
  const idsOf = async (query = '') => (await list(query)).map((c) => c.id);

  it('lists the workspace’s conversations, most recently active first, as list records', async () => {
    const listed = await list();
    expect(listed.map((c) => c.id)).toEqual([ids.quiet, ids.mail, ids.billing, ids.ada]);
    const ada = listed.find((c) => c.id === ids.ada)!;
    expect(Object.keys(ada).sort()).toEqual(
      [
        'agent',
        'assignee',
        'channel',
        'channelExternalId',
        'contactInfo',
        'createdAt',
        'id',
        'isAiEnabled',
        'labels',
        'messages',
        'playground',
        'status',
        'title',
        'unreadCount',
        'updatedAt',
      ].sort(),
    );
    expect(ada).toMatchObject({
      title: 'How do I reset my PASSWORD?',
      status: 'UNRESOLVED',
      channel: 'website',
      channelExternalId: 'ext-ada',
      agent: { id: agentA.id, name: 'Agent A', iconUrl: null, handle: 'agent-a' },
      contactInfo: { name: 'Ada Lovelace', email: 'ada@example.com', phoneNumber: '+44 20 7946 0000' },
    });
    // By default only the latest message.
    expect(ada.messages).toHaveLength(1);
    expect(Object.keys(ada.messages[0]!).sort()).toEqual(['attachments', 'createdAt', 'from', 'id', 'read', 'sender', 'text']);
    expect(ada.messages[0]).toMatchObject({ from: 'agent', text: 'Use the reset link.', attachments: [] });
    const quiet = listed.find((c) => c.id === ids.quiet);
    expect(quiet).toMatchObject({ messages: [], contactInfo: null, channelExternalId: null, title: '' });
    expect(listed.find((c) => c.id === ids.mail)).toMatchObject({ channel: 'mail', agent: null });
  });

  it('returns every message, oldest first, with fullConversation=true', async () => {
    const ada = (await list('?fullConversation=true')).find((c) => c.id === ids.ada)!;
    expect(ada.messages.map((m) => m.text)).toEqual(['How do I reset my PASSWORD?', 'Use the reset link.']);
    const latest = (await list('?fullConversation=false')).find((c) => c.id === ids.ada)!;
    expect(latest.messages.map((m) => m.text)).toEqual(['Use the reset link.']);
  });

  it('returns only the essentials with simplified=true', async () => {
    const listed = await list<SimplifiedConversationBody>('?simplified=true&fullConversation=true');
    expect(listed.map((c) => c.id)).toEqual([ids.quiet, ids.mail, ids.billing, ids.ada]);
    for (const conversation of listed) {
      expect(Object.keys(conversation).sort()).toEqual(['agent', 'channel', 'id', 'status', 'title', 'updatedAt']);
    }
    expect(listed.find((c) => c.id === ids.ada)!.agent).toEqual({ id: agentA.id, name: 'Agent A' });
    expect(listed.find((c) => c.id === ids.mail)!.agent).toBeNull();
  });

  it.each([
    ['agentId', () => `?agentId=${agentA.id}`, () => [ids.quiet, ids.ada]],
    ['channel', () => '?channel=website', () => [ids.ada]],
    ['channel email as mail', () => '?channel=email', () => [ids.mail]],
    ['channel mail', () => '?channel=mail', () => [ids.mail]],
    ['channelExternalId', () => '?channelExternalId=ext-mail', () => [ids.mail]],
    ['agent and channel together', () => `?agentId=${agentA.id}&channel=messenger_a`, () => [ids.quiet]],
    ['a channel nobody used', () => '?channel=helpdesk', () => []],
  ])('narrows by %s', async (_label, query, expected) => {
    expect(await idsOf(query())).toEqual(expected());
  });

  it.each([
    ['message text, ignoring case', 'password', () => [ids.ada]],
    ['the contact’s last name', 'LOVELACE', () => [ids.ada]],
    ['the contact’s full name', 'ada lovelace', () => [ids.ada]],
    ['the contact’s e-mail', 'ADA@example', () => [ids.ada]],
    ['the contact’s phone', '7946', () => [ids.ada]],
    ['the title', 'hello from', () => [ids.mail]],
    ['a literal %', '100%', () => [ids.billing]],
    ['a lone % (not a wildcard)', '%', () => [ids.billing]],
    ['a literal _', 'off_', () => [ids.billing]],
    ['a lone _ (not a wildcard)', '_', () => [ids.billing]],
    ['a backslash', '\\', () => []],
    ['nothing that matches', 'zebra', () => []],
  ])('searches %s', async (_label, term, expected) => {
    expect(await idsOf(`?search=${encodeURIComponent(term)}`)).toEqual(expected());
  });

  it('combines search with the other filters', async () => {
    expect(await idsOf(`?search=reset&agentId=${agentB.id}`)).toEqual([]);
    expect(await idsOf(`?search=reset&agentId=${agentA.id}`)).toEqual([ids.ada]);
  });

  it('narrows by creation date, dates and date-times, bounds included', async () => {
    const all = await list();
    const created = (id: string) => all.find((c) => c.id === id)!.createdAt;
    const q = (from?: string, to?: string) => idsOf(`?${new URLSearchParams({ ...(from && { startDate: from }), ...(to && { endDate: to }) })}`);
    expect(await q(created(ids.billing))).toEqual([ids.quiet, ids.mail, ids.billing]);
    expect(await q(undefined, created(ids.billing))).toEqual([ids.billing, ids.ada]);
    expect(await q(created(ids.billing), created(ids.mail))).toEqual([ids.mail, ids.billing]);
    // A bare date covers its whole day (UTC).
    const day = created(ids.ada).slice(0, 10);
    expect(await q(day, day)).toHaveLength(4);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(await q(next)).toEqual([]);
    const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(await q(undefined, before)).toEqual([]);
  });

  it('moves a conversation to the top when a message arrives', async () => {
    const other = await parley.newWorkspace();
    const first = await seedConversation(parley, other.id, { messages: [['human', 'one']] });
    await pause(5);
    const second = await seedConversation(parley, other.id, { messages: [['human', 'two']] });
    const order = async () => (await parley.call<ListedConversationBody[]>('GET', '/user-conversations', { key: other.key })).body.map((c) => c.id);
    expect(await order()).toEqual([second.id, first.id]);
    await pause(5);
    await parley.core.services.conversations.messages.add(other.id, first.id, { from: 'agent', text: 'reply' });
    expect(await order()).toEqual([first.id, second.id]);
  });

  it('pages with limit and cursor, covering every conversation exactly once, newest activity first', async () => {
    const paged = await parley.newWorkspace();
    for (let i = 0; i < 7; i++) await seedConversation(parley, paged.id, { messages: [['human', `question ${i}`]] });
    const everything = (await parley.call<ListedConversationBody[]>('GET', '/user-conversations?limit=100', { key: paged.key })).body.map(
      (c) => c.id,
    );
    expect(everything).toHaveLength(7);

    const seen: string[] = [];
    const updatedAts: number[] = [];
    let path: string | null = '/user-conversations?limit=3&fullConversation=false';
    let pages = 0;
    while (path !== null) {
      const response: ApiResponse<ListedConversationBody[]> = await parley.call<ListedConversationBody[]>('GET', path, { key: paged.key });
      expect(response.status).toBe(200);
      pages++;
      seen.push(...response.body.map((c) => c.id));
      updatedAts.push(...response.body.map((c) => Date.parse(c.updatedAt)));
      const cursor = response.headers.get('x-next-cursor');
      const link = response.headers.get('link');
      if (cursor === null) {
        expect(link).toBeNull();
        path = null;
      } else {
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        const match = /^<([^>]+)>; rel="next"$/.exec(link ?? '');
        expect(match).not.toBeNull();
        const next = new URL(match![1]!, parley.url);
        expect(next.pathname).toBe('/user-conversations');
        expect(next.searchParams.get('cursor')).toBe(cursor);
        expect(next.searchParams.get('limit')).toBe('3');
        path = `${next.pathname}${next.search}`;
      }
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(everything);
    expect(new Set(seen).size).toBe(7);
    expect([...updatedAts].sort((x, y) => y - x)).toEqual(updatedAts);
  });

  it('defaults to 20 per page', async () => {
    const many = await parley.newWorkspace();
    for (let i = 0; i < 21; i++) await seedConversation(parley, many.id);
    const first = await parley.call('GET', '/user-conversations', { key: many.key });
    expect(first.body).toHaveLength(20);
    const rest = await parley.call('GET', `/user-conversations?cursor=${first.headers.get('x-next-cursor')}`, { key: many.key });
    expect(rest.body).toHaveLength(1);
    expect(rest.headers.get('x-next-cursor')).toBeNull();
  });

  it.each([
    ['limit 0', '?limit=0', 'querystring.limit'],
    ['limit over 100', '?limit=101', 'querystring.limit'],
    ['a cursor it did not give out', '?cursor=not-a-cursor', 'querystring.cursor'],
    ['an unknown channel', '?channel=fax', 'querystring.channel'],
    ['a boolean that is not one', '?fullConversation=maybe', 'querystring.fullConversation'],
    ['a start date that is not a date', '?startDate=yesterday', 'querystring.startDate'],
    ['an end date that is not a date', '?endDate=2026-13-45', 'querystring.endDate'],
  ])('refuses %s with 400', async (_label, query, field) => {
    const response = await parley.call<ErrorBody>('GET', `/user-conversations${query}`, { key: ws.key });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('INVALID_REQUEST');
    expect(detailFields(response.body)).toContain(field);
  });

  it('answers 404 for an unknown agent and 403 for another workspace’s', async () => {
    expect((await parley.call('GET', '/user-conversations?agentId=nope', { key: ws.key })).status).toBe(404);
    const other = await parley.newWorkspace();
    const refused = await parley.call<ErrorBody>('GET', `/user-conversations?agentId=${agentA.id}`, { key: other.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('FORBIDDEN');
  });
});
