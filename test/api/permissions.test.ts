import { describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { SignedInMember, TestParley } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import type { AccessTokenBody, AgentBody, AnswerBody, ErrorBody, IssuedKeyBody, MemberBody } from '../support/bodies.js';
import { ROUTE_TABLE, seedWorkspace, type Seed } from './route-table.js';

/**
 * One permission rule for every credential a person can hold: every route × member
 * session, member token, a key the member made, a visitor token; owners' and admins' own credentials; and
 * revocation that takes effect with the next request.
 */
describe.each(STORE_KINDS)('who may call what, on %s', (kind) => {
  let parley: TestParley;
  let seed: Seed;
  let member: SignedInMember;
  let admin: SignedInMember;
  /** Keys made by the member and by the admin: each has its maker's rights. */
  let memberKey: string;
  let adminKey: string;
  let visitorToken: string;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
    seed = await seedWorkspace(parley);
    member = await parley.newMember(seed.a.id, 'member');
    admin = await parley.newMember(seed.a.id, 'admin');
    const mint = async (token: string) => (await parley.call<IssuedKeyBody>('POST', '/keys', { key: token, body: { name: 'mine' } })).body.key;
    memberKey = await mint(member.accessToken);
    adminKey = await mint(admin.accessToken);
    const agent = (await parley.call<AgentBody>('POST', '/agents', { key: seed.a.key, body: { visibility: 'public' } })).body.id;
    visitorToken = (await parley.call<AnswerBody>('POST', `/agents/${agent}/query`, { key: null, body: { query: 'hello' } })).body.visitorToken;
  });

  /** The status of one request; a stream is dropped as soon as its headers arrive. */
  async function statusOf(route: string, headers: Record<string, string>): Promise<number> {
    const method = route.split(' ')[0]!;
    const { path, body } = ROUTE_TABLE[route]!.request(seed);
    const controller = new AbortController();
    const response = await fetch(new URL(path, parley.url), {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
    });
    controller.abort();
    return response.status;
  }
  const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

  const workspaceRoutes = Object.entries(ROUTE_TABLE).filter(([, routeCase]) => routeCase.foreign !== 'visitors only');

  it.each(workspaceRoutes)('%s', async (route, routeCase) => {
    // Refused first, so that a destructive request only ever runs for someone allowed to make it.
    // A public route (the agent's query, its widget settings) answers a private resource like a missing one.
    expect([401, 404], 'a session cookie is no API credential').toContain(
      await statusOf(route, { cookie: `parley_session=${member.sessionSecret}` }),
    );
    expect([401, 404], 'visitor token').toContain(await statusOf(route, bearer(visitorToken)));
    // Each credential with whether this route refuses it: members off admin routes, admins off owner routes.
    for (const [who, credential, refused] of [
      ['member token', member.accessToken, routeCase.admins],
      ['key a member made', memberKey, routeCase.admins],
      ['admin token', admin.accessToken, routeCase.owners],
      ['key an admin made', adminKey, routeCase.owners],
    ] as const) {
      const status = await statusOf(route, bearer(credential));
      if (refused) expect(status, who).toBe(403);
      else expect([401, 403], who).not.toContain(status);
    }
    expect([401, 403], 'operator key').not.toContain(await statusOf(route, bearer(seed.a.key)));
  });

  it('H2: a member’s own key cannot invite owners, promote its maker, touch the owner, settings or webhooks', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const plain = await parley.newMember(ws.id, 'member');
    const key = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: plain.accessToken, body: {} })).body;
    expect(key.createdBy).toBe(plain.userId);
    const members = (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body;
    const ownerId = members.find((row) => row.email === owner.email)!.id;
    const selfId = members.find((row) => row.email === plain.email)!.id;
    for (const [method, path, body] of [
      ['POST', '/members', { email: 'friend@example.com', role: 'owner' }],
      ['PATCH', `/members/${selfId}`, { role: 'owner' }],
      ['PATCH', `/members/${ownerId}`, { role: 'member' }],
      ['DELETE', `/members/${ownerId}`, undefined],
      ['PATCH', '/workspace/settings', { name: 'Mine now' }],
      ['POST', '/webhooks', { url: 'http://127.0.0.1:9/stolen', events: ['message.created'] }],
    ] as const) {
      const response = await parley.call<ErrorBody>(method, path, { key: key.key, body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error).toBe('FORBIDDEN');
    }
    expect((await parley.call('GET', '/agents', { key: key.key })).status).toBe(200);
  });

  it('only owners make, unmake or remove owners; admins manage admins and members', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const boss = await parley.newMember(ws.id, 'admin');
    const staff = await parley.newMember(ws.id, 'member');
    const idOf = async (email: string) =>
      (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body.find((row) => row.email === email)!.id;
    const [ownerId, bossId, staffId] = [await idOf(owner.email), await idOf(boss.email), await idOf(staff.email)];
    const asAdmin = (method: string, path: string, body?: unknown) => parley.call<ErrorBody>(method, path, { key: boss.accessToken, body });

    expect((await asAdmin('PATCH', `/members/${bossId}`, { role: 'owner' })).status).toBe(403);
    expect((await asAdmin('PATCH', `/members/${ownerId}`, { role: 'admin' })).status).toBe(403);
    expect((await asAdmin('DELETE', `/members/${ownerId}`)).status).toBe(403);
    expect((await asAdmin('POST', '/members', { email: 'new-owner@example.com', role: 'owner' })).status).toBe(403);
    expect((await asAdmin('PATCH', `/members/${staffId}`, { role: 'admin' })).status).toBe(200);
    expect((await asAdmin('POST', '/members', { email: 'new-admin@example.com', role: 'admin' })).status).toBe(200);

    const ownerCall = (method: string, path: string, body?: unknown) => parley.call<MemberBody>(method, path, { key: owner.accessToken, body });
    expect((await ownerCall('PATCH', `/members/${bossId}`, { role: 'owner' })).status).toBe(200);
  });

  it('M1: a removal, a demotion and a sign-out end the person’s access tokens with the next request; a removed member’s keys stop too', async () => {
    const ws = await parley.newWorkspace();
    const mint = async (person: SignedInMember) =>
      parley.call<AccessTokenBody | ErrorBody>('POST', '/auth/token', {
        headers: { origin: parley.url, cookie: `parley_session=${person.sessionSecret}` },
        body: { workspaceId: ws.id },
      });
    const idOf = async (email: string) =>
      (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body.find((row) => row.email === email)!.id;

    const leaving = await parley.newMember(ws.id, 'admin');
    const leavingKey = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: leaving.accessToken, body: {} })).body.key;
    expect((await parley.call('DELETE', `/members/${await idOf(leaving.email)}`, { key: ws.key })).status).toBe(200);
    for (const credential of [leaving.accessToken, leavingKey]) {
      const response = await parley.call<ErrorBody>('GET', '/agents', { key: credential });
      expect(response.status).toBe(401);
    }
    expect((await mint(leaving)).status).toBe(403);

    const demoted = await parley.newMember(ws.id, 'admin');
    const demotedKey = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: demoted.accessToken, body: {} })).body.key;
    expect((await parley.call('GET', '/webhooks', { key: demotedKey })).status).toBe(200);
    expect((await parley.call('PATCH', `/members/${await idOf(demoted.email)}`, { key: ws.key, body: { role: 'member' } })).status).toBe(200);
    expect((await parley.call('GET', '/webhooks', { key: demoted.accessToken })).status).toBe(401);
    expect((await parley.call('GET', '/webhooks', { key: demotedKey })).status).toBe(403);
    const fresh = (await mint(demoted)).body as AccessTokenBody;
    expect(fresh.role).toBe('member');
    expect((await parley.call('GET', '/webhooks', { key: fresh.accessToken })).status).toBe(403);
    expect((await parley.call('GET', '/agents', { key: demotedKey })).status).toBe(200);

    const signingOut = await parley.newMember(ws.id, 'member');
    const signOut = await parley.call('POST', '/auth/sign-out', {
      headers: { origin: parley.url, cookie: `parley_session=${signingOut.sessionSecret}` },
    });
    expect(signOut.status).toBe(204);
    expect((await parley.call('GET', '/agents', { key: signingOut.accessToken })).status).toBe(401);
  });
});
