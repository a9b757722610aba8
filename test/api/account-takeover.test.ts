import { describe, expect } from 'vitest';
import { joinWorkspace } from '../../src/domain/memberships.js';
import { parleyTest as it } from '../support/parley-test.js';
import type { CallOptions, TestParley } from '../support/parley.js';
import { STORE_KINDS } from '../support/stores.js';
import type { ErrorBody, InvitationBody, InvitedBody, MemberBody, UserAnswerBody } from '../support/bodies.js';

const PASSWORD = 'a long enough password';
const ATTACKER_PASSWORD = 'the attacker chose this';

/** The session cookie's value of a Set-Cookie answer. */
const sessionOf = (headers: Headers): string | undefined =>
  headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('parley_session=') && !cookie.startsWith('parley_session=;'))
    ?.split(';')[0]!
    .slice('parley_session='.length);

/**
 * Accounts that cannot be taken over: an invitation or a sign-up never sets an existing person's password,
 * links die when a newer one is made or their purpose is spent, and a new password signs everyone else out.
 */
describe.each(STORE_KINDS)('accounts that hold on %s', (kind) => {
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: { PARLEY_SIGNUP: 'open' } });
    await parley.core.services.workspaces.bootstrap();
  });

  const asBrowser = <T>(method: string, path: string, secret: string | null, options: CallOptions = {}) =>
    parley.call<T>(method, path, { ...options, headers: { origin: parley.url, ...(secret === null ? {} : { cookie: `parley_session=${secret}` }) } });
  const signIn = (email: string, password: string) =>
    asBrowser<UserAnswerBody | ErrorBody>('POST', '/auth/sign-in', null, { body: { email, password } });

  /** An owner made with `parley users create` whose set-password link was never used. */
  async function passwordlessOwner(name: string) {
    const ws = await parley.newWorkspace();
    const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const user = await parley.core.services.accounts.ensureUser(email, name);
    await joinWorkspace(parley.core.store, ws.id, user, 'owner');
    await parley.core.services.accounts.passwordResetLink(email);
    return { ws, email, user };
  }

  const tokenOf = (invited: InvitedBody) => new URL(invited.invitationUrl).searchParams.get('token')!;

  // First: setup links exist only while nobody has a password.
  it('H1: only the newest setup link works, and none once the first owner has a password', async () => {
    const { accounts } = parley.core.services;
    const earlierStart = (await accounts.setupLink())!;
    const latestStart = (await accounts.setupLink())!;
    const stale = await asBrowser('POST', '/auth/setup', null, {
      body: { token: earlierStart.token, email: 'thief@example.com', name: 'T', password: ATTACKER_PASSWORD },
    });
    expect(stale.status).toBe(404);

    // The owner got in another way (`parley users create`, then its set-password link): setup is over.
    const owner = await passwordlessOwner('Olga');
    const link = await accounts.passwordResetLink(owner.email);
    expect((await asBrowser('POST', '/auth/password-reset', null, { body: { token: link.token, password: PASSWORD } })).status).toBe(200);
    const late = await asBrowser('POST', '/auth/setup', null, {
      body: { token: latestStart.token, email: owner.email, name: 'T', password: ATTACKER_PASSWORD },
    });
    expect(late.status).toBe(404);
    expect((await signIn(owner.email, PASSWORD)).status).toBe(200);
    expect(await parley.core.store.users.findByEmail('thief@example.com')).toBeUndefined();
    expect(await accounts.setupLink()).toBeUndefined();
  });

  it('C1: another workspace’s admin invites a passwordless owner and cannot set their password, nor learn about them', async () => {
    const victim = await passwordlessOwner('Victoria');
    const attackers = await parley.newWorkspace();
    const admin = await parley.newMember(attackers.id, 'admin');

    const invited = await parley.call<InvitedBody>('POST', '/members', { key: admin.accessToken, body: { email: victim.email, role: 'member' } });
    expect(invited.status).toBe(200);
    // The answer shows what the inviter typed, not the account's name.
    expect(invited.body).toMatchObject({ email: victim.email, name: victim.email.split('@')[0], status: 'invited' });
    const listed = (await parley.call<MemberBody[]>('GET', '/members', { key: attackers.key })).body.find((member) => member.email === victim.email);
    expect(listed?.name).not.toBe('Victoria');

    const offer = await parley.call<InvitationBody>('GET', `/auth/invitations/${tokenOf(invited.body)}`);
    expect(offer.body).toEqual({ email: victim.email, workspaceName: expect.any(String), role: 'member', signedIn: false });
    expect(JSON.stringify(offer.body)).not.toContain('Victoria');

    const accept = await asBrowser<ErrorBody>('POST', '/auth/invitations/accept', null, {
      body: { token: tokenOf(invited.body), password: ATTACKER_PASSWORD },
    });
    expect(accept.status).toBe(401);
    expect(sessionOf(accept.headers)).toBeUndefined();
    expect((await parley.core.store.users.find(victim.user.id))?.passwordHash).toBeNull();
    expect((await signIn(victim.email, ATTACKER_PASSWORD)).status).toBe(401);
  });

  it('C1: a person with an account accepts with their own password, or from their own session without one', async () => {
    const inviting = await parley.newWorkspace();
    const existing = await parley.newMember((await parley.newWorkspace()).id, 'owner');
    const invite = async () =>
      (await parley.call<InvitedBody>('POST', '/members', { key: inviting.key, body: { email: existing.email, role: 'admin' } })).body;

    const first = await invite();
    expect((await asBrowser('POST', '/auth/invitations/accept', null, { body: { token: tokenOf(first), password: ATTACKER_PASSWORD } })).status).toBe(
      401,
    );
    const withPassword = await asBrowser<UserAnswerBody>('POST', '/auth/invitations/accept', null, {
      body: { token: tokenOf(first), password: existing.password },
    });
    expect(withPassword.status).toBe(200);
    expect((await signIn(existing.email, existing.password)).status).toBe(200);

    const elsewhere = await parley.newWorkspace();
    const second = (await parley.call<InvitedBody>('POST', '/members', { key: elsewhere.key, body: { email: existing.email, role: 'member' } })).body;
    const offer = await asBrowser<InvitationBody>('GET', `/auth/invitations/${tokenOf(second)}`, existing.sessionSecret);
    expect(offer.body.signedIn).toBe(true);
    const fromSession = await asBrowser<UserAnswerBody>('POST', '/auth/invitations/accept', existing.sessionSecret, {
      body: { token: tokenOf(second) },
    });
    expect(fromSession.status).toBe(200);
    const memberships = await parley.core.store.members.listByUser(existing.userId);
    expect(memberships.find(({ member }) => member.workspaceId === elsewhere.id)?.member.status).toBe('active');
  });

  it('C1: an address nobody has taken up yet gets the password chosen with its invitation link', async () => {
    const ws = await parley.newWorkspace();
    const email = `newcomer-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const invited = (await parley.call<InvitedBody>('POST', '/members', { key: ws.key, body: { email, name: 'Nia', role: 'member' } })).body;
    expect((await asBrowser('POST', '/auth/invitations/accept', null, { body: { token: tokenOf(invited), password: PASSWORD } })).status).toBe(200);
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });

  it('C2: open sign-up with a passwordless owner’s address is refused and sets nothing; a taken workspace name is 409, not 500', async () => {
    const victim = await passwordlessOwner('Selma');
    const takeover = await asBrowser<ErrorBody>('POST', '/auth/sign-up', null, {
      body: { email: victim.email, name: 'Mallory', password: ATTACKER_PASSWORD, workspaceName: `Mallory ${Math.random()}` },
    });
    expect(takeover.status).toBe(409);
    expect(takeover.body.error).toBe('CONFLICT');
    expect((await parley.core.store.users.find(victim.user.id))?.passwordHash).toBeNull();

    const existingName = (await parley.core.store.workspaces.find(victim.ws.id))!.name;
    const email = `fresh-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const clash = await asBrowser<ErrorBody>('POST', '/auth/sign-up', null, {
      body: { email, name: 'Fay', password: PASSWORD, workspaceName: existingName },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain(existingName);
    expect(await parley.core.store.users.findByEmail(email)).toBeUndefined();
    expect((await signIn(email, PASSWORD)).status).toBe(401);

    const fine = await asBrowser('POST', '/auth/sign-up', null, {
      body: { email, name: 'Fay', password: PASSWORD, workspaceName: `Fay’s ${Math.random()}` },
    });
    expect(fine.status).toBe(200);
  });

  it('M2: only the newest reset link works, a reset signs every session out, and a new password signs out the others', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'admin');
    const laptop = person.sessionSecret;
    const phone = sessionOf((await signIn(person.email, person.password)).headers)!;

    const { accounts } = parley.core.services;
    const older = await accounts.passwordResetLink(person.email);
    const newer = await accounts.passwordResetLink(person.email);
    expect((await asBrowser('POST', '/auth/password-reset', null, { body: { token: older.token, password: ATTACKER_PASSWORD } })).status).toBe(404);
    const reset = await asBrowser('POST', '/auth/password-reset', null, { body: { token: newer.token, password: PASSWORD } });
    expect(reset.status).toBe(200);
    const afterReset = sessionOf(reset.headers)!;
    for (const secret of [laptop, phone]) expect((await asBrowser('GET', '/me', secret)).status).toBe(401);
    expect((await parley.call('GET', '/agents', { key: person.accessToken })).status).toBe(401);
    expect((await asBrowser('GET', '/me', afterReset)).status).toBe(200);

    const tablet = sessionOf((await signIn(person.email, PASSWORD)).headers)!;
    const changed = await asBrowser('PATCH', '/me', afterReset, { body: { password: 'yet another password', currentPassword: PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await asBrowser('GET', '/me', tablet)).status).toBe(401);
    expect((await asBrowser('GET', '/me', afterReset)).status).toBe(200);
  });

  it('M2: re-inviting revokes the previous invitation link', async () => {
    const ws = await parley.newWorkspace();
    const email = `twice-${Math.random().toString(36).slice(2, 8)}@example.com`;
    const first = (await parley.call<InvitedBody>('POST', '/members', { key: ws.key, body: { email, role: 'member' } })).body;
    const second = (await parley.call<InvitedBody>('POST', `/members/${first.id}/invitation`, { key: ws.key })).body;
    expect((await parley.call('GET', `/auth/invitations/${tokenOf(first)}`)).status).toBe(404);
    expect((await asBrowser('POST', '/auth/invitations/accept', null, { body: { token: tokenOf(first), password: PASSWORD } })).status).toBe(404);
    expect((await asBrowser('POST', '/auth/invitations/accept', null, { body: { token: tokenOf(second), password: PASSWORD } })).status).toBe(200);
  });
});
