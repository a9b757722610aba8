import { SignJWT } from 'jose';
import { joinWorkspace } from '../../src/domain/memberships.js';
import { describe, expect } from 'vitest';
import { parleyTest as it } from '../support/parley-test.js';
import type { CallOptions, TestParley, Workspace } from '../support/parley.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';
import type {
  AccessTokenBody,
  ErrorBody,
  InvitationBody,
  InvitedBody,
  MeAnswerBody,
  MemberBody,
  ModelBody,
  SessionBody,
  SettingsBody,
  SetupStatusBody,
  UserAnswerBody,
} from '../support/bodies.js';
import { detailFields } from '../support/bodies.js';

const PASSWORD = 'a long enough password';

/** The `name=value` of a Set-Cookie header, and its attributes, lower case. */
function cookieOf(headers: Headers): { value: string; attributes: string[] } | undefined {
  const header = headers.getSetCookie().find((cookie) => cookie.startsWith('parley_session='));
  if (header === undefined) return undefined;
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  return { value: pair!.slice('parley_session='.length), attributes: attributes.map((a) => a.toLowerCase()) };
}

describe.each(STORE_KINDS)('people, sessions and access tokens on %s', (kind) => {
  let smtp: SmtpSink;
  let parley: TestParley;
  let origin: string;

  it.beforeAll(async ({ startParley }) => {
    smtp = await SmtpSink.start();
    parley = await startParley(kind, { env: { PARLEY_SMTP_URL: smtp.url } });
    origin = parley.url;
    await parley.core.services.workspaces.bootstrap();
  });
  it.afterAll(() => smtp.close());

  /** A call as the dashboard makes it: the session cookie and the page's own Origin. */
  const asBrowser = <T>(method: string, path: string, secret: string | null, options: CallOptions = {}) =>
    parley.call<T>(method, path, {
      ...options,
      headers: { origin, ...(secret === null ? {} : { cookie: `parley_session=${secret}` }), ...options.headers },
    });

  /** `T`: the body the test expects, a UserAnswerBody unless the sign-in is to be refused. */
  const signIn = async <T = UserAnswerBody>(email: string, password: string) => {
    const response = await asBrowser<T>('POST', '/auth/sign-in', null, { body: { email, password } });
    return { response, secret: cookieOf(response.headers)?.value };
  };

  it('creates the first owner with the one-time setup link, sets a safe cookie, and never again', async () => {
    expect((await parley.call<SetupStatusBody>('GET', '/auth/setup-status')).body).toEqual({ setupRequired: true, signUpOpen: false });
    const link = await parley.core.services.accounts.setupLink();
    expect(link?.url).toMatch(/\/dashboard\/setup\?token=/);
    const tooShort = await asBrowser<ErrorBody>('POST', '/auth/setup', null, {
      body: { token: link!.token, email: 'owner@example.com', name: 'Olive', password: 'short' },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.details).toEqual([{ field: 'body.password', message: 'must have at least 10 characters' }]);

    const setup = await asBrowser<UserAnswerBody>('POST', '/auth/setup', null, {
      body: { token: link!.token, email: 'Owner@Example.com', name: 'Olive', password: PASSWORD },
    });
    expect(setup.status).toBe(200);
    expect(setup.body.user).toMatchObject({ email: 'owner@example.com', name: 'Olive' });
    const cookie = cookieOf(setup.headers)!;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    const me = await asBrowser<MeAnswerBody>('GET', '/me', cookie.value);
    expect(me.body.memberships).toEqual([
      { workspaceId: expect.any(String), workspaceName: 'Default workspace', role: 'owner', memberId: expect.any(String) },
    ]);

    const again = await asBrowser('POST', '/auth/setup', null, {
      body: { token: link!.token, email: 'thief@example.com', name: 'T', password: PASSWORD },
    });
    expect(again.status).toBe(404);
    expect((await parley.call<SetupStatusBody>('GET', '/auth/setup-status')).body.setupRequired).toBe(false);
    expect(await parley.core.services.accounts.setupLink()).toBeUndefined();
  });

  it('answers a wrong e-mail and a wrong password alike, and refuses the sixth wrong password in a row', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'admin');
    const unknown = await signIn<ErrorBody>('nobody@example.com', PASSWORD);
    const wrong = await signIn<ErrorBody>(person.email, 'not the password at all');
    expect([unknown.response.status, wrong.response.status]).toEqual([401, 401]);
    expect(unknown.response.body.message).toBe(wrong.response.body.message);
    expect(unknown.secret).toBeUndefined();
    for (let attempt = 2; attempt <= 5; attempt++) expect((await signIn(person.email, `wrong ${attempt}`)).response.status).toBe(401);
    const sixth = await signIn<ErrorBody>(person.email, 'wrong 6');
    expect(sixth.response.status).toBe(429);
    expect(sixth.response.body.error).toBe('RATE_LIMIT');
    expect(Number(sixth.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // The account is held, even with the right password, while the window lasts; others are not.
    expect((await signIn(person.email, person.password)).response.status).toBe(429);
    const other = await parley.newMember(ws.id, 'member');
    expect((await signIn(other.email, other.password)).response.status).toBe(200);
  });

  it('mints access tokens only for a live session, from the site’s own pages, for the person’s workspaces', async () => {
    const a = await parley.newWorkspace();
    const b = await parley.newWorkspace();
    const person = await parley.newMember(a.id, 'member');
    expect((await parley.call('POST', '/auth/token', { headers: { origin }, body: {} })).status).toBe(401);
    const foreign = await parley.call('POST', '/auth/token', {
      headers: { origin: 'https://evil.example', cookie: `parley_session=${person.sessionSecret}` },
      body: {},
    });
    expect(foreign.status).toBe(403);
    const noOrigin = await parley.call('POST', '/auth/token', { headers: { cookie: `parley_session=${person.sessionSecret}` }, body: {} });
    expect(noOrigin.status).toBe(403);

    const minted = await asBrowser<AccessTokenBody>('POST', '/auth/token', person.sessionSecret, { body: {} });
    expect(minted.status).toBe(200);
    expect(minted.body).toMatchObject({ workspaceId: a.id, role: 'member' });
    expect(Date.parse(minted.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect((await parley.call('GET', '/agents', { key: minted.body.accessToken })).status).toBe(200);
    expect((await asBrowser('POST', '/auth/token', person.sessionSecret, { body: { workspaceId: b.id } })).status).toBe(403);
    expect((await parley.call<SettingsBody>('GET', `/workspace/settings`, { key: minted.body.accessToken })).body.name).toBe(
      (await parley.call<SettingsBody>('GET', '/workspace/settings', { key: a.key })).body.name,
    );
  });

  it('refuses forged, unsigned and expired access tokens with 401', async () => {
    const ws = await parley.newWorkspace();
    const { accessToken } = await parley.newMember(ws.id, 'owner');
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const escalated = `${header}.${Buffer.from(JSON.stringify({ ...claims, ws: 'someone-else' })).toString('base64url')}.${signature}`;
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const key = new Uint8Array(
      Buffer.from(await parley.core.store.secrets.getOrCreate('access-token-key', 'unused', new Date().toISOString()), 'base64url'),
    );
    const expired = await new SignJWT({ ws: ws.id, role: 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('parley')
      .setAudience('parley:member')
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    const guessed = await new SignJWT({ ws: ws.id, role: 'owner', sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('parley')
      .setAudience('parley:member')
      .setSubject(claims.sub)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a guessed secret of thirty-two bytes!!'));
    for (const token of [escalated, unsigned, expired, guessed]) {
      const response = await parley.call<ErrorBody>('GET', '/agents', { key: token });
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('UNAUTHORIZED');
    }
    expect((await parley.call('GET', '/agents', { key: accessToken })).status).toBe(200);
  });

  it('lists sessions and revokes one: a revoked or signed-out session mints no token', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'admin');
    const second = (await signIn(person.email, person.password)).secret!;
    const sessions = await asBrowser<SessionBody[]>('GET', '/auth/sessions', second);
    expect(sessions.body.map((session) => session.current).sort()).toEqual([false, true]);
    const firstId = sessions.body.find((session) => !session.current)!.id;
    expect((await asBrowser('DELETE', `/auth/sessions/${firstId}`, second)).status).toBe(204);
    expect((await asBrowser('POST', '/auth/token', person.sessionSecret, { body: {} })).status).toBe(401);
    expect((await asBrowser('POST', '/auth/token', second, { body: {} })).status).toBe(200);

    const signedOut = await asBrowser('POST', '/auth/sign-out', second);
    expect(signedOut.status).toBe(204);
    expect(signedOut.headers.getSetCookie().join()).toMatch(/parley_session=;/);
    expect((await asBrowser('POST', '/auth/token', second, { body: {} })).status).toBe(401);
    expect((await asBrowser('GET', '/me', second)).status).toBe(401);
  });

  it('lets owners and admins manage members, webhooks and settings; members everything else; never the last owner', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const member = await parley.newMember(ws.id, 'member');
    const asMember = <T>(method: string, path: string, body?: unknown) => parley.call<T>(method, path, { key: member.accessToken, body });
    expect((await asMember('GET', '/keys')).status).toBe(200);
    expect((await asMember('POST', '/datastores', {})).status).toBe(200);
    expect((await asMember('GET', '/members')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/members', { email: 'x@example.com' }],
      ['GET', '/webhooks', undefined],
      ['PATCH', '/workspace/settings', { name: 'Mine now' }],
    ] as const) {
      const response = await asMember<ErrorBody>(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error).toBe('FORBIDDEN');
    }
    const members = (await parley.call<MemberBody[]>('GET', '/members', { key: owner.accessToken })).body;
    const ownerRow = members.find((row) => row.email === owner.email)!;
    const demote = await parley.call('PATCH', `/members/${ownerRow.id}`, { key: owner.accessToken, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect((await parley.call('DELETE', `/members/${ownerRow.id}`, { key: ws.key })).status).toBe(409);
    const memberRow = members.find((row) => row.email === member.email)!;
    expect((await parley.call<MemberBody>('PATCH', `/members/${memberRow.id}`, { key: owner.accessToken, body: { role: 'owner' } })).body.role).toBe(
      'owner',
    );
    expect((await parley.call('PATCH', `/members/${ownerRow.id}`, { key: owner.accessToken, body: { role: 'admin' } })).status).toBe(200);
  });

  it('invites by e-mail: the link in the mail lets the person set a password once and sign in', async () => {
    const ws = await parley.newWorkspace('Acme <b>support</b>');
    const before = smtp.mails.length;
    const invited = await parley.call<InvitedBody>('POST', '/members', { key: ws.key, body: { email: 'New.Person@example.com', role: 'member' } });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: 'new.person@example.com', role: 'member', status: 'invited', emailed: true });
    const mail = (await smtp.waitFor(before + 1)).at(-1)!;
    expect(mail.to).toEqual(['new.person@example.com']);
    expect(mail.mail.text).toContain(invited.body.invitationUrl);
    expect(mail.mail.html).toContain('Acme &lt;b&gt;support&lt;/b&gt;');
    const token = new URL(invited.body.invitationUrl).searchParams.get('token')!;

    expect((await parley.call<InvitationBody>('GET', `/auth/invitations/${token}`)).body).toEqual({
      email: 'new.person@example.com',
      workspaceName: 'Acme <b>support</b>',
      role: 'member',
      signedIn: false,
    });
    const accepted = await asBrowser('POST', '/auth/invitations/accept', null, { body: { token, name: 'Nora', password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(cookieOf(accepted.headers)?.value).toBeTruthy();
    expect((await asBrowser('POST', '/auth/invitations/accept', null, { body: { token, password: PASSWORD } })).status).toBe(404);
    expect(
      (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body.find((m) => m.email === 'new.person@example.com'),
    ).toMatchObject({
      status: 'active',
      name: 'Nora',
    });
    expect((await signIn('new.person@example.com', PASSWORD)).response.status).toBe(200);
  });

  it('lets a member without a password (one recorded before sign-in existed) in through a reset link, never through an invitation an admin holds', async () => {
    const ws = await parley.newWorkspace();
    const { accounts } = parley.core.services;
    const user = await accounts.ensureUser('legacy@example.com', 'Lee');
    await joinWorkspace(parley.core.store, ws.id, user, 'admin');
    const member = (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body.find((m) => m.email === 'legacy@example.com')!;
    expect(member.status).toBe('active');
    // An invitation link is in the inviter's hands too: it must not set the password of someone already let in.
    expect((await parley.call('POST', `/members/${member.id}/invitation`, { key: ws.key })).status).toBe(409);
    const link = await accounts.passwordResetLink('legacy@example.com');
    expect((await asBrowser('POST', '/auth/password-reset', null, { body: { token: link.token, password: PASSWORD } })).status).toBe(200);
    expect((await signIn('legacy@example.com', PASSWORD)).response.status).toBe(200);
  });

  it('sets a new password with a reset link, and changes name and password with the current one', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'admin');
    const link = await parley.core.services.accounts.passwordResetLink(person.email);
    const reset = await asBrowser('POST', '/auth/password-reset', null, { body: { token: link.token, password: 'a brand new password' } });
    expect(reset.status).toBe(200);
    expect((await signIn(person.email, person.password)).response.status).toBe(401);
    const secret = (await signIn(person.email, 'a brand new password')).secret!;

    const wrongCurrent = await asBrowser<ErrorBody>('PATCH', '/me', secret, { body: { password: 'another new password', currentPassword: 'nope' } });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.body.details).toEqual([{ field: 'body.currentPassword', message: 'is not your current password' }]);
    const changed = await asBrowser<UserAnswerBody>('PATCH', '/me', secret, {
      body: { name: 'Renamed', password: 'another new password', currentPassword: 'a brand new password' },
    });
    expect(changed.body, JSON.stringify(changed.body)).toHaveProperty('user.name', 'Renamed');
    expect((await signIn(person.email, 'another new password')).response.status).toBe(200);
  });

  it('refuses malformed bodies on the session and member routes with 400 naming the field', async () => {
    const ws = await parley.newWorkspace();
    const cases: [string, string, object, string][] = [
      ['POST', '/auth/sign-in', { email: 'a@example.com' }, 'body.password'],
      ['POST', '/auth/setup', { token: 't', email: 'not an address', name: 'N', password: PASSWORD }, 'body.email'],
      ['POST', '/auth/invitations/accept', { token: '', password: PASSWORD }, 'body.token'],
      ['POST', '/members', { email: 'nobody', role: 'member' }, 'body.email'],
      ['POST', '/members', { email: 'x@example.com', role: 'superuser' }, 'body.role'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await parley.call<ErrorBody>(method, path, { key: path.startsWith('/members') ? ws.key : null, headers: { origin }, body });
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(detailFields(response.body), `${method} ${path}`).toContain(field);
    }
    const member = (await parley.call<InvitedBody>('POST', '/members', { key: ws.key, body: { email: 'r@example.com' } })).body;
    const badRole = await parley.call<ErrorBody>('PATCH', `/members/${member.id}`, { key: ws.key, body: { role: 'superuser' } });
    expect(badRole.status).toBe(400);
    expect(detailFields(badRole.body)).toEqual(['body.role']);
  });

  it('lists the model names an agent may use', async () => {
    const ws: Workspace = await parley.newWorkspace();
    const models = await parley.call<ModelBody[]>('GET', '/models', { key: ws.key });
    expect(models.body).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'llm_b_mini', provider: 'local' })]));
  });

  it('keeps sign-up closed unless PARLEY_SIGNUP=open', async () => {
    const response = await asBrowser('POST', '/auth/sign-up', null, {
      body: { email: 'walk-in@example.com', name: 'W', password: PASSWORD, workspaceName: 'Mine' },
    });
    expect(response.status).toBe(404);
  });
});

describe.each(STORE_KINDS)('open sign-up on %s', (kind) => {
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind, { env: { PARLEY_SIGNUP: 'open' } });
  });

  it('creates an account with a workspace of its own, owned by the person', async () => {
    const response = await parley.call('POST', '/auth/sign-up', {
      headers: { origin: parley.url },
      body: { email: 'walk-in@example.com', name: 'Wendy', password: PASSWORD, workspaceName: 'Wendy’s shop' },
    });
    expect(response.status).toBe(200);
    const secret = cookieOf(response.headers)!.value;
    const me = await parley.call<MeAnswerBody>('GET', '/me', { headers: { cookie: `parley_session=${secret}` } });
    expect(me.body.memberships).toEqual([
      { workspaceId: expect.any(String), workspaceName: 'Wendy’s shop', role: 'owner', memberId: expect.any(String) },
    ]);
  });

  it('refuses the 61st credential check from one address within a minute, whatever the account or link', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 61; attempt++) {
      const body =
        attempt % 2 === 0 ? { token: `bogus-${attempt}`, password: PASSWORD } : { email: `someone-${attempt}@example.com`, password: PASSWORD };
      const path = attempt % 2 === 0 ? '/auth/password-reset' : '/auth/sign-in';
      statuses.push((await parley.call('POST', path, { headers: { origin: parley.url }, body })).status);
    }
    // The sign-up above was one check of this address's 60 this minute.
    const refusedFrom = statuses.indexOf(429);
    expect(refusedFrom).toBe(59);
    expect(statuses.slice(0, refusedFrom).every((status) => status === 404 || status === 401)).toBe(true);
    expect(statuses.slice(refusedFrom).every((status) => status === 429)).toBe(true);
  });
});
