import { describe, expect } from 'vitest';
import { joinWorkspace } from '../../src/domain/memberships.js';
import type { ErrorBody, InvitedBody, MemberBody, PasswordResetBody, ResetRequestedBody, UserAnswerBody } from '../support/bodies.js';
import { parleyTest as it } from '../support/parley-test.js';
import type { SignedInMember, TestParley } from '../support/parley.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';

const NEW_PASSWORD = 'a brand new password';

/** The session secret a response set, if any. */
const sessionOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('parley_session='))
    ?.split(';')[0]!
    .slice('parley_session='.length);

/** "Forgot password?" as the sign-in page sends it. */
const askForReset = (parley: TestParley, email: string) =>
  parley.call<ResetRequestedBody>('POST', '/auth/password-reset/request', { headers: { origin: parley.url }, body: { email } });

const resetWith = (parley: TestParley, url: string, password = NEW_PASSWORD) =>
  parley.call<UserAnswerBody>('POST', '/auth/password-reset', {
    headers: { origin: parley.url },
    body: { token: new URL(url).searchParams.get('token'), password },
  });

const signIn = (parley: TestParley, email: string, password: string) =>
  parley.call('POST', '/auth/sign-in', { headers: { origin: parley.url }, body: { email, password } });

const tokenWorks = async (parley: TestParley, person: SignedInMember) =>
  (await parley.call('GET', '/agents', { key: person.accessToken })).status === 200;

describe.each(STORE_KINDS)('“Forgot password?” with e-mail on %s', (kind) => {
  let smtp: SmtpSink;
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    smtp = await SmtpSink.start();
    parley = await startParley(kind, { env: { PARLEY_SMTP_URL: smtp.url } });
  });
  it.afterAll(() => smtp.close());

  it('e-mails a link that sets the password once and signs every other session out', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'admin');
    const before = smtp.mails.length;
    const asked = await askForReset(parley, person.email.toUpperCase());
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ delivery: 'email' });
    const mail = (await smtp.waitFor(before + 1)).at(-1)!;
    expect(mail.to).toEqual([person.email]);
    expect(mail.mail.subject).toBe('Reset your Parley password');
    const url = mail.mail.text!.match(/https?:\/\/\S+/)![0];
    expect(url.startsWith(`${parley.url}/dashboard/reset-password?token=`)).toBe(true);
    expect(mail.mail.html).toContain(`href="${url}"`);

    const reset = await resetWith(parley, url);
    expect(reset.status).toBe(200);
    expect(sessionOf(reset.headers)).toBeTruthy();
    expect(await parley.core.services.accounts.session(person.sessionSecret)).toBeUndefined();
    expect(await tokenWorks(parley, person)).toBe(false);
    expect((await signIn(parley, person.email, person.password)).status).toBe(401);
    expect((await signIn(parley, person.email, NEW_PASSWORD)).status).toBe(200);
    expect((await resetWith(parley, url, 'yet another password')).status).toBe(404);
  });

  it('answers an unknown address the same and sends it nothing', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'member');
    const before = smtp.mails.length;
    const unknown = await askForReset(parley, 'nobody-here@example.com');
    const known = await askForReset(parley, person.email);
    expect([unknown.status, known.status]).toEqual([202, 202]);
    expect(unknown.body).toEqual(known.body);
    await smtp.waitFor(before + 1);
    // The known address's mail came; give a stray one for the unknown address time to arrive too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.slice(before).map((mail) => mail.to)).toEqual([[person.email]]);
  });

  it('refuses a fourth request for one address within 15 minutes, whether or not it has an account', async () => {
    for (const email of ['flood-me@example.com', (await parley.newMember((await parley.newWorkspace()).id, 'member')).email]) {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt++) statuses.push((await askForReset(parley, email)).status);
      expect(statuses, email).toEqual([202, 202, 202, 429]);
    }
  });

  it('refuses a request from another site', async () => {
    const foreign = await parley.call<ErrorBody>('POST', '/auth/password-reset/request', {
      headers: { origin: 'https://evil.example' },
      body: { email: 'x@example.com' },
    });
    expect(foreign.status).toBe(403);
    const noOrigin = await parley.call<ErrorBody>('POST', '/auth/password-reset/request', { body: { email: 'x@example.com' } });
    expect(noOrigin.status).toBe(403);
  });
});

describe.each(STORE_KINDS)('password resets without e-mail on %s', (kind) => {
  let parley: TestParley;

  it.beforeAll(async ({ startParley }) => {
    parley = await startParley(kind);
  });

  it('tells every address alike to ask an owner', async () => {
    const ws = await parley.newWorkspace();
    const person = await parley.newMember(ws.id, 'member');
    const known = await askForReset(parley, person.email);
    const unknown = await askForReset(parley, 'nobody-here@example.com');
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect(known.body).toEqual({ delivery: 'ask-an-owner' });
    expect(unknown.body).toEqual(known.body);
  });

  it('lets an owner make a reset link for a member of their workspace only, and only for one who belongs nowhere else', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const admin = await parley.newMember(ws.id, 'admin');
    const member = await parley.newMember(ws.id, 'member');
    const bystander = await parley.newMember(ws.id, 'member');
    const elsewhere = await parley.newMember(ws.id, 'member');
    const other = await parley.newWorkspace();
    await joinWorkspace(parley.core.store, other.id, (await parley.core.store.users.find(elsewhere.userId))!, 'member');
    const makeLink = <T>(caller: SignedInMember, memberId: string) =>
      parley.call<T>('POST', `/members/${memberId}/password-reset`, { key: caller.accessToken });

    const made = await makeLink<PasswordResetBody>(owner, member.memberId);
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      id: member.memberId,
      email: member.email,
      passwordResetUrl: expect.stringContaining('/dashboard/reset-password?token='),
    });
    expect((await resetWith(parley, made.body.passwordResetUrl)).status).toBe(200);
    expect(await tokenWorks(parley, member)).toBe(false);
    expect((await signIn(parley, member.email, NEW_PASSWORD)).status).toBe(200);

    const twoWorkspaces = await makeLink<ErrorBody>(owner, elsewhere.memberId);
    expect(twoWorkspaces.status).toBe(409);
    expect(twoWorkspaces.body.message).toMatch(/Forgot password/);
    for (const caller of [admin, bystander]) {
      const refused = await makeLink<ErrorBody>(caller, elsewhere.memberId);
      expect(refused.status).toBe(403);
      expect((await makeLink<ErrorBody>(caller, owner.memberId)).status).toBe(403);
    }
    // Another workspace's member is not this owner's to reset (403, as for every other workspace's id).
    expect((await makeLink<ErrorBody>(owner, (await parley.newMember(other.id, 'member')).memberId)).status).toBe(403);
  });

  it('voids an owner’s link once the person is invited to another workspace, and refuses open invitations', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const member = await parley.newMember(ws.id, 'member');
    const made = await parley.call<PasswordResetBody>('POST', `/members/${member.memberId}/password-reset`, { key: owner.accessToken });
    expect(made.status).toBe(200);
    const other = await parley.newWorkspace();
    expect((await parley.call('POST', '/members', { key: other.key, body: { email: member.email, role: 'member' } })).status).toBe(200);
    expect((await resetWith(parley, made.body.passwordResetUrl)).status).toBe(404);
    expect((await signIn(parley, member.email, member.password)).status).toBe(200);

    const invited = await parley.call<InvitedBody>('POST', '/members', { key: ws.key, body: { email: 'not-yet@example.com', role: 'member' } });
    const open = await parley.call<ErrorBody>('POST', `/members/${invited.body.id}/password-reset`, { key: owner.accessToken });
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(/invitation/);
  });

  it('keeps only the newest reset link working, whoever made it', async () => {
    const ws = await parley.newWorkspace();
    const owner = await parley.newMember(ws.id, 'owner');
    const member = await parley.newMember(ws.id, 'member');
    const byOwner = (await parley.call<PasswordResetBody>('POST', `/members/${member.memberId}/password-reset`, { key: owner.accessToken })).body;
    const byOperator = await parley.core.services.accounts.passwordResetLink(member.email);
    expect((await resetWith(parley, byOwner.passwordResetUrl)).status).toBe(404);
    const again = (await parley.call<PasswordResetBody>('POST', `/members/${member.memberId}/password-reset`, { key: owner.accessToken })).body;
    expect((await resetWith(parley, byOperator.url)).status).toBe(404);
    expect((await resetWith(parley, again.passwordResetUrl)).status).toBe(200);
    const members = (await parley.call<MemberBody[]>('GET', '/members', { key: ws.key })).body;
    expect(members.find((row) => row.id === member.memberId)?.status).toBe('active');
  });
});
