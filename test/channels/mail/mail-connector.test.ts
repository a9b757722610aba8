import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ChannelError, type ConnectorConnection, type OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { loadConfig } from '../../../src/config.js';
import { OutboundPolicy } from '../../../src/net/address-policy.js';
import { MailConnector, type MailSecrets, type MailSettings } from '../../../src/channels/mail/mail-connector.js';
import { PrivateDovecot } from '../../support/dovecot.js';
import { SmtpSink } from '../../support/smtp-sink.js';
import { rawMail } from './raw-mail.js';

const never = new AbortController().signal;

let dovecot: PrivateDovecot;
let sink: SmtpSink;
const connectors: MailConnector[] = [];

beforeAll(async () => {
  [dovecot, sink] = await Promise.all([PrivateDovecot.start(), SmtpSink.start()]);
});
afterAll(async () => {
  await Promise.all(connectors.map((connector) => connector.close()));
  await Promise.all([dovecot?.close(), sink?.close()]);
});

function connector(options: Partial<ConstructorParameters<typeof MailConnector>[0]> = {}): MailConnector {
  const made = new MailConnector({ maxAttachmentBytes: 100_000, timeoutMs: 5_000, ...options });
  connectors.push(made);
  return made;
}

const sinkPort = () => Number(new URL(sink.url).port);

function connection(
  overrides: { id?: string; mailbox?: string; imapPassword?: string; smtp?: MailSettings['smtp']; inbound?: MailSettings['inbound'] } = {},
): ConnectorConnection<MailSettings, MailSecrets> {
  return {
    id: overrides.id ?? 'conn_mail',
    config: {
      address: 'support@shop.example',
      name: 'Shop Support',
      inbound: overrides.inbound ?? 'imap',
      imap: { host: '127.0.0.1', port: dovecot.port, secure: false, user: dovecot.user, mailbox: overrides.mailbox ?? 'INBOX' },
      smtp: overrides.smtp === undefined ? { host: '127.0.0.1', port: sinkPort(), secure: false, user: null } : overrides.smtp,
      aiReplies: false,
    },
    secrets: { imapPassword: overrides.imapPassword ?? dovecot.password },
    inboundUrl: null,
  };
}

let serial = 0;
const customerMail = (text: string, headers: Record<string, string> = {}) =>
  rawMail({
    from: 'Jane Doe <jane@example.com>',
    to: 'support@shop.example',
    subject: 'Order',
    text,
    messageId: `<m${++serial}.${Date.now()}@example.com>`,
    headers,
  });

describe('check', () => {
  it('logs in to the mailbox and the SMTP server, and tells the mailbox’s size', async () => {
    await dovecot.deliver(await customerMail('before the check'));
    const result = await connector().check(connection(), never);
    expect(result).toMatchObject({ ok: true, details: { messages: expect.stringMatching(/^[1-9]\d*$/) as unknown } });
    expect(result.message).toMatch(/INBOX holds \d+ messages/);
  });

  it('a wrong password: refused, in words, without the password', async () => {
    const result = await connector().check(connection({ imapPassword: 'wrong-secret-123' }), never);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/refused the user name or password/);
    expect(result.message).not.toContain('wrong-secret-123');
  });

  it('a server that does not answer: unreachable', async () => {
    const settings = connection();
    const imap = settings.config.imap;
    if (imap) imap.port = 1;
    expect(await connector().check(settings, never)).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be reached/) as unknown });
  });

  it('a mailbox that does not exist', async () => {
    expect(await connector().check(connection({ mailbox: 'Nowhere' }), never)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/Nowhere/) as unknown,
    });
  });

  it('TLS spoken to a server that does not: a TLS failure, for IMAP and for SMTP', async () => {
    const imapTls = connection();
    if (imapTls.config.imap) imapTls.config.imap.secure = true;
    expect(await connector().check(imapTls, never)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^TLS with the IMAP server/) as unknown,
    });
    const smtpTls = connection({ smtp: { host: '127.0.0.1', port: sinkPort(), secure: true, user: null } });
    expect(await connector().check(smtpTls, never)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^TLS with the SMTP server/) as unknown,
    });
  });

  it('a server the outbound policy does not allow is never connected to', async () => {
    const guarded = connector({ policy: new OutboundPolicy(loadConfig({}).outbound) });
    expect(await guarded.check(connection(), never)).toMatchObject({ ok: false, message: expect.stringMatching(/127\.0\.0\.1/) as unknown });
    await expect(guarded.poll(connection(), null, 0, never)).rejects.toMatchObject({ name: 'ChannelError', retryable: false });
    await expect(
      guarded.send(
        connection(),
        {
          id: 'm',
          conversationId: 'c',
          automatic: false,
          channelExternalId: 'x',
          text: 't',
          title: 't',
          thread: [],
          lastInboundAt: null,
          notice: null,
          to: { externalId: 'a@b.example', email: 'a@b.example' },
        },
        never,
      ),
    ).rejects.toMatchObject({
      name: 'ChannelError',
      retryable: false,
    });
    expect(
      await connector({ policy: new OutboundPolicy(loadConfig({ PARLEY_OUTBOUND_ALLOW: 'loopback' }).outbound) }).check(connection(), never),
    ).toMatchObject({ ok: true });
  });

  it('no SMTP server and no fallback: not ok', async () => {
    expect(await connector().check(connection({ smtp: null, inbound: 'smtp' }), never)).toEqual({
      ok: false,
      message: 'No SMTP server is set for this address',
    });
  });
});

describe('poll over IMAP', () => {
  it('pulls only when reading a mailbox', () => {
    expect(connector().pulls(connection())).toBe(true);
    expect(connector().pulls(connection({ inbound: 'smtp' }))).toBe(false);
  });

  it('starts at the mailbox’s end, takes new mail through IDLE, advances, and does not deliver again after a restart', async () => {
    await dovecot.deliver(await customerMail('old mail one'));
    await dovecot.deliver(await customerMail('old mail two'));
    const first = connector();
    const start = await first.poll(connection(), null, 0, never);
    expect(start.messages).toEqual([]);
    expect(start.cursor).toMatch(/^\d+:\d+$/);

    // Delivered while the poll waits in IDLE: it must come back long before the wait is over.
    const began = Date.now();
    const waiting = first.poll(connection(), start.cursor, 20_000, never);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await dovecot.deliver(await customerMail('Where is my order?'));
    const arrived = await waiting;
    expect(Date.now() - began).toBeLessThan(3_000);
    expect(arrived.messages.map((message) => message.text)).toEqual(['Where is my order?']);
    expect(arrived.messages[0]?.from.email).toBe('jane@example.com');
    const [validity, lastUid] = (arrived.cursor ?? '').split(':').map(Number);
    expect(`${validity}:${(lastUid ?? 0) - 1}`).toBe(start.cursor);

    // The fetched mail is marked read.
    const client = await dovecot.client();
    try {
      await client.mailboxOpen('INBOX');
      const [seen] = await client.fetchAll(String(lastUid), { flags: true }, { uid: true });
      expect([...(seen?.flags ?? [])]).toContain('\\Seen');
    } finally {
      await client.logout();
    }

    expect(await first.poll(connection(), arrived.cursor, 0, never)).toEqual({ messages: [], cursor: arrived.cursor });

    // A restarted Parley (a new connector, a new session) with the saved cursor.
    const restarted = connector();
    expect(await restarted.poll(connection(), arrived.cursor, 0, never)).toEqual({ messages: [], cursor: arrived.cursor });
    await dovecot.deliver(await customerMail('And the invoice?'));
    const next = await restarted.poll(connection(), arrived.cursor, 5_000, never);
    expect(next.messages.map((message) => message.text)).toEqual(['And the invoice?']);
  });

  it('skips mail that is no conversation but moves past it', async () => {
    const skipped: string[] = [];
    const mail = connector({ onSkipped: (connectionId, reason) => skipped.push(`${connectionId} ${reason}`) });
    const { cursor } = await mail.poll(connection(), null, 0, never);
    await dovecot.deliver(await customerMail('I am out of office', { 'Auto-Submitted': 'auto-replied' }));
    await dovecot.deliver(await customerMail('A person writes'));
    const result = await mail.poll(connection(), cursor, 5_000, never);
    expect(result.messages.map((message) => message.text)).toEqual(['A person writes']);
    expect(result.cursor).not.toBe(cursor);
    expect(skipped).toEqual([expect.stringMatching(/^conn_mail UID \d+: automatic \(Auto-Submitted: auto-replied\)$/)]);
  });

  it('waits the whole time when nothing comes, and stops at once when aborted', async () => {
    const mail = connector();
    const { cursor } = await mail.poll(connection(), null, 0, never);
    let began = Date.now();
    expect(await mail.poll(connection(), cursor, 700, never)).toEqual({ messages: [], cursor });
    expect(Date.now() - began).toBeGreaterThanOrEqual(650);

    const abort = new AbortController();
    began = Date.now();
    setTimeout(() => abort.abort(), 200);
    expect(await mail.poll(connection(), cursor, 20_000, abort.signal)).toEqual({ messages: [], cursor });
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('a mailbox whose UIDVALIDITY changed (deleted and made again) is read from its new end', async () => {
    const admin = await dovecot.client();
    try {
      await admin.mailboxCreate('Support');
      const settings = connection({ id: 'conn_support', mailbox: 'Support' });
      const mail = connector();
      const { cursor } = await mail.poll(settings, null, 0, never);
      await dovecot.deliver(await customerMail('first box'), 'Support');
      const got = await mail.poll(settings, cursor, 5_000, never);
      expect(got.messages.map((message) => message.text)).toEqual(['first box']);

      await admin.mailboxDelete('Support');
      // Dovecot takes a new mailbox's UIDVALIDITY from the clock: made again within the second, it keeps the old one.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await admin.mailboxCreate('Support');
      await dovecot.deliver(await customerMail('already there when the box was made again'), 'Support');
      const after = await mail.poll(settings, got.cursor, 0, never);
      expect(after.messages).toEqual([]);
      expect(after.cursor?.split(':')[0]).not.toBe(got.cursor?.split(':')[0]);

      await dovecot.deliver(await customerMail('second box'), 'Support');
      const next = await mail.poll(settings, after.cursor, 5_000, never);
      expect(next.messages.map((message) => message.text)).toEqual(['second box']);
    } finally {
      await admin.logout();
    }
  });

  it('a cursor of another UIDVALIDITY starts again at the mailbox’s end', async () => {
    const mail = connector();
    const { cursor } = await mail.poll(connection(), null, 0, never);
    const [validity, lastUid] = (cursor ?? '').split(':');
    await dovecot.deliver(await customerMail('not for the old cursor'));
    const stale = `${Number(validity) - 7}:1`;
    const result = await mail.poll(connection(), stale, 0, never);
    expect(result.messages).toEqual([]);
    expect(result.cursor).toBe(`${validity}:${Number(lastUid) + 1}`);
  });

  it('a session the server ended is opened again by the next poll', async () => {
    const mail = connector();
    const { cursor } = await mail.poll(connection(), null, 0, never);
    await dovecot.kick();
    await dovecot.deliver(await customerMail('after the server hung up'));
    const result = await mail.poll(connection(), cursor, 5_000, never);
    expect(result.messages.map((message) => message.text)).toEqual(['after the server hung up']);
  });

  it('a server without IDLE is asked again every fallbackPollMs', async () => {
    const plain = await PrivateDovecot.start(['imap_capability = IMAP4rev1 LITERAL+ SASL-IR ID ENABLE UIDPLUS NAMESPACE']);
    try {
      const settings = connection({ id: 'conn_no_idle' });
      if (settings.config.imap) settings.config.imap.port = plain.port;
      const mail = connector({ fallbackPollMs: 250 });
      const { cursor } = await mail.poll(settings, null, 0, never);
      const waiting = mail.poll(settings, cursor, 10_000, never);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const delivered = Date.now();
      await plain.deliver(await customerMail('no IDLE here'));
      const result = await waiting;
      expect(Date.now() - delivered).toBeLessThan(2_000);
      expect(result.messages.map((message) => message.text)).toEqual(['no IDLE here']);
      await mail.close();
    } finally {
      await plain.close();
    }
  });

  it('a wrong password fails the poll with a ChannelError that is not retryable', async () => {
    const error = await connector()
      .poll(connection({ imapPassword: 'nope' }), null, 0, never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChannelError);
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/refused/) as unknown });
  });
});

describe('send over SMTP', () => {
  afterEach(() => {
    sink.rejectNext.length = 0;
  });

  const reply = (overrides: Partial<OutgoingChannelMessage> = {}): OutgoingChannelMessage => ({
    id: 'msg_1001',
    conversationId: 'conv_1234abcd',
    automatic: true,
    channelExternalId: 'root@example.com',
    text: 'Your order ships **today**.',
    title: 'Order',
    thread: ['root@example.com', 'second@example.com'],
    to: { externalId: 'jane@example.com', email: 'jane@example.com' },
    lastInboundAt: null,
    notice: null,
    ...overrides,
  });

  it('sends the reply threaded, marked and tagged; answers its Message-ID', async () => {
    const before = sink.mails.length;
    const sent = await connector().send(connection(), reply(), never);
    expect(sent).toEqual({ channelMessageId: 'parley.msg_1001@shop.example' });
    const [received] = (await sink.waitFor(before + 1)).slice(before);
    const lines = new Map(received?.mail.headerLines.map((line) => [line.key, line.line]));
    expect(received?.to).toEqual(['jane@example.com']);
    expect(lines.get('message-id')).toBe('Message-ID: <parley.msg_1001@shop.example>');
    expect(lines.get('in-reply-to')).toBe('In-Reply-To: <second@example.com>');
    expect(lines.get('references')).toBe('References: <root@example.com> <second@example.com>');
    expect(lines.get('reply-to')).toBe('Reply-To: support+conv_1234abcd@shop.example');
    expect(lines.get('x-parley-connection')).toBe('X-Parley-Connection: conn_mail');
    expect(lines.get('auto-submitted')).toBe('Auto-Submitted: auto-replied');
    expect(lines.get('subject')).toBe('Subject: Re: Order');
    expect(received?.mail.html).toContain('<strong>today</strong>');
  });

  it('goes through the instance’s own server when the connection has none', async () => {
    const before = sink.mails.length;
    const fallback = connector({ fallbackTransport: { host: '127.0.0.1', port: sinkPort(), secure: false, ignoreTLS: true } });
    await fallback.send(connection({ smtp: null }), reply({ id: 'msg_1002' }), never);
    const [received] = (await sink.waitFor(before + 1)).slice(before);
    expect(received?.mail.messageId).toBe('<parley.msg_1002@shop.example>');
    await expect(connector().send(connection({ smtp: null }), reply(), never)).rejects.toMatchObject({
      name: 'ChannelError',
      retryable: false,
      message: 'No SMTP server is set for this address',
    });
  });

  it('a 5xx refusal is final, a 4xx one and an unreachable server are worth retrying', async () => {
    const mail = connector();
    sink.rejectNext.push(550);
    await expect(mail.send(connection(), reply(), never)).rejects.toMatchObject({ name: 'ChannelError', retryable: false });
    sink.rejectNext.push(451);
    await expect(mail.send(connection(), reply(), never)).rejects.toMatchObject({ name: 'ChannelError', retryable: true });
    await expect(
      connector().send(connection({ smtp: { host: '127.0.0.1', port: 1, secure: false, user: null } }), reply(), never),
    ).rejects.toMatchObject({
      name: 'ChannelError',
      retryable: true,
      message: expect.stringMatching(/cannot be reached/) as unknown,
    });
  });
});
