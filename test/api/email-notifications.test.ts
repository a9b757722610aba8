import { afterAll, describe, expect, it } from 'vitest';
import { startTestParley, type TestParley, type Workspace } from '../support/parley.js';
import { parleyTest } from '../support/parley-test.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { STORE_KINDS } from '../support/stores.js';
import { until } from '../support/until.js';
import { seedConversation } from './conversations-seed.js';
import { eventOf, type AgentBody, type DeliveryBody, type SettingsBody } from '../support/bodies.js';
import type { NotifyingEvent } from '../../src/contract/events.js';

const PUBLIC_URL = 'https://support.example.com';

describe.each(STORE_KINDS)('e-mail notifications (%s)', (kind) => {
  let parley: TestParley;
  let smtp: SmtpSink;
  let ws: Workspace;
  let agentId: string;

  parleyTest.beforeAll(async ({ startParley }) => {
    smtp = await SmtpSink.start();
    parley = await startParley(kind, {
      workers: true,
      env: {
        PARLEY_SMTP_URL: smtp.url,
        PARLEY_MAIL_FROM: 'Parley Support <support@example.com>',
        PARLEY_PUBLIC_URL: PUBLIC_URL,
        PARLEY_JOB_RETRY_BASE_SECONDS: '0.3',
        PARLEY_JOB_RETRY_MAX_SECONDS: '1',
      },
    });
    ws = await parley.newWorkspace();
    agentId = (await parley.call<AgentBody>('POST', '/agents', { key: ws.key, body: { name: 'Concierge' } })).body.id;
    for (const [email, role] of [
      ['Owner@Example.com', 'owner'],
      ['admin@example.com', 'admin'],
      ['viewer@example.com', 'member'],
    ]) {
      expect((await parley.call('POST', '/members', { key: ws.key, body: { email, role } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await smtp?.close();
  });

  const patchStatus = (id: string, status: string) => parley.call('PATCH', `/conversations/${id}`, { key: ws.key, body: { status } });

  it('has settings with defaults, merged field by field, and says whether e-mail is on', async () => {
    const defaults = await parley.call('GET', '/workspace/settings', { key: ws.key });
    expect(defaults.body).toEqual({
      name: expect.any(String),
      notifications: { 'conversation-resolved': { admins: false, customer: false }, 'human-requested': { admins: true, customer: false } },
      emailEnabled: true,
      rateLimits: { keyPerMinute: 1200, ipPerMinute: 60, visitorPerMinute: 20 },
    });
    const patched = await parley.call<SettingsBody>('PATCH', '/workspace/settings', {
      key: ws.key,
      body: { notifications: { 'conversation-resolved': { admins: true, customer: true } } },
    });
    expect(patched.body.notifications).toEqual({
      'conversation-resolved': { admins: true, customer: true },
      'human-requested': { admins: true, customer: false },
    });
    const bad = await parley.call('PATCH', '/workspace/settings', { key: ws.key, body: { notifications: { 'order-shipped': { admins: true } } } });
    expect(bad.status).toBe(400);
    const badValue = await parley.call('PATCH', '/workspace/settings', {
      key: ws.key,
      body: { notifications: { 'human-requested': { admins: 'yes' } } },
    });
    expect(badValue.status).toBe(400);
    // Another workspace's settings are its own.
    const other = await parley.newWorkspace();
    await parley.call('PATCH', '/workspace/settings', { key: other.key, body: { notifications: { 'human-requested': { admins: false } } } });
    expect((await parley.call<SettingsBody>('GET', '/workspace/settings', { key: ws.key })).body.notifications['human-requested']?.admins).toBe(true);
  });

  it('mails administrators and the customer on conversation-resolved, with the transcript and a dashboard link', async () => {
    const seeded = await seedConversation(parley, ws.id, {
      agentId,
      channel: 'website',
      contact: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
      messages: [
        ['human', 'Is <script>alert(1)</script> safe in my order note?'],
        ['agent', 'Yes, notes are stored as plain text.'],
      ],
    });
    expect((await patchStatus(seeded.id, 'RESOLVED')).status).toBe(200);
    const mails = await until(
      () => smtp.mails.filter((m) => m.mail.subject?.includes('resolved')),
      (mails) => mails.length >= 2,
    );

    const toAdmins = mails.find((m) => m.to.includes('admin@example.com'))!;
    expect(toAdmins.to.sort()).toEqual(['admin@example.com', 'owner@example.com']);
    expect(toAdmins.from).toBe('support@example.com');
    expect(toAdmins.mail.subject).toBe('Conversation resolved: Is <script>alert(1)</script> safe in my order note?');
    expect(toAdmins.mail.text).toContain('Ada Lovelace');
    expect(toAdmins.mail.text).toContain('Is <script>alert(1)</script> safe in my order note?');
    expect(toAdmins.mail.text).toContain('Concierge');
    expect(toAdmins.mail.text).toContain('Yes, notes are stored as plain text.');
    expect(toAdmins.mail.text).toContain(`${PUBLIC_URL}/dashboard/conversations/${seeded.id}`);
    expect(toAdmins.mail.html).toContain('Is &lt;script&gt;alert(1)&lt;/script&gt; safe');
    expect(toAdmins.mail.html).not.toContain('<script>');
    expect(toAdmins.mail.html).toContain(`href="${PUBLIC_URL}/dashboard/conversations/${seeded.id}"`);

    const toCustomer = mails.find((m) => m.to.includes('ada@example.org'))!;
    expect(toCustomer.to).toEqual(['ada@example.org']);
    expect(toCustomer.mail.subject).toMatch(/^Your conversation is resolved/);
    expect(toCustomer.mail.text).toContain('Yes, notes are stored as plain text.');
    expect(toCustomer.mail.text).not.toContain('/dashboard/');
    expect(smtp.mails.some((m) => m.to.includes('viewer@example.com') && !m.mail.subject?.startsWith('Join '))).toBe(false);
  });

  it('mails only administrators on human-requested by default, and logs each e-mail', async () => {
    const before = smtp.mails.length;
    const seeded = await seedConversation(parley, ws.id, {
      agentId,
      contact: { email: 'bob@example.org' },
      messages: [['human', 'I want to talk to a person about invoice 4471']],
    });
    await patchStatus(seeded.id, 'HUMAN_REQUESTED');
    const [mail] = await until(
      () => smtp.mails.slice(before),
      (mails) => mails.length >= 1,
    );
    expect(mail!.to.sort()).toEqual(['admin@example.com', 'owner@example.com']);
    expect(mail!.mail.subject).toBe('Human requested: I want to talk to a person about invoice 4471');
    expect(mail!.mail.text).toContain('asks for a person');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mails.slice(before).some((m) => m.to.includes('bob@example.org'))).toBe(false);

    const log = await parley.call<DeliveryBody[]>('GET', '/workspace/email-deliveries', { key: ws.key });
    const entry = log.body.find((d) => d.eventType === 'human-requested' && eventOf<'human-requested'>(d.body).data.conversationId === seeded.id);
    expect(entry).toMatchObject({ status: 'succeeded', attemptCount: 1, recipients: ['owner@example.com', 'admin@example.com'].sort() });
    expect(entry?.attempts[0]).toMatchObject({ attempt: 1, statusCode: 250, error: null });
  });

  it('retries an e-mail the SMTP server refuses for now, and logs both attempts', async () => {
    const before = smtp.mails.length;
    smtp.rejectNext.push(451);
    const seeded = await seedConversation(parley, ws.id, { agentId, messages: [['human', 'Second try please']] });
    await patchStatus(seeded.id, 'HUMAN_REQUESTED');
    await until(
      () => smtp.mails.slice(before),
      (mails) => mails.length >= 1,
    );
    const entry = await until(
      async () => {
        const log = await parley.call<DeliveryBody[]>('GET', '/workspace/email-deliveries', { key: ws.key });
        return log.body.find((d) => eventOf<NotifyingEvent>(d.body).data.conversationId === seeded.id && d.status === 'succeeded');
      },
      (found) => found !== undefined,
    );
    expect(entry!.attempts.map((a) => a.statusCode)).toEqual([451, 250]);
    expect(entry!.attempts[0]?.error).toMatch(/451|try again/i);
  });
});

describe('e-mail notifications without PARLEY_PUBLIC_URL', () => {
  it('link to the address the server really got (PORT=0), not the one configured before it listened', async () => {
    const smtp = await SmtpSink.start();
    const parley = await startTestParley('sqlite', { workers: true, env: { PARLEY_SMTP_URL: smtp.url } });
    try {
      expect(parley.config.events.publicUrlIsLocal).toBe(true);
      const ws = await parley.newWorkspace();
      expect((await parley.call('POST', '/members', { key: ws.key, body: { email: 'admin@example.com', role: 'admin' } })).status).toBe(200);
      const seeded = await seedConversation(parley, ws.id, { messages: [['human', 'Can a person call me back?']] });
      await parley.call('PATCH', `/conversations/${seeded.id}`, { key: ws.key, body: { status: 'HUMAN_REQUESTED' } });
      const [mail] = await until(
        () => smtp.mails.filter((m) => m.mail.subject?.startsWith('Human requested')),
        (mails) => mails.length >= 1,
      );
      expect(mail!.mail.text).toContain(`Open the conversation: ${parley.url}/dashboard/conversations/${seeded.id}`);
    } finally {
      await parley.close();
      await smtp.close();
    }
  });
});
