import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseInboundMail, type InboundMailOptions } from '../../../src/channels/mail/inbound-mail.js';
import type { InboundChannelMessage } from '../../../src/channels/connector.js';
import { rawMail } from './raw-mail.js';

const OPTIONS: InboundMailOptions = { maxAttachmentBytes: 1_000, ownConnectionId: 'conn_1' };

const fixture = async (name: string): Promise<Buffer> =>
  Buffer.from((await readFile(new URL(`./fixtures/${name}.eml`, import.meta.url), 'utf8')).replace(/\r?\n/g, '\r\n'));

async function parsed(raw: Buffer, options: Partial<InboundMailOptions> = {}): Promise<InboundChannelMessage> {
  const result = await parseInboundMail(raw, { ...OPTIONS, ...options });
  if (!('message' in result)) throw new Error(`ignored: ${result.ignored}`);
  return result.message;
}

async function ignored(raw: Buffer): Promise<string> {
  const result = await parseInboundMail(raw, OPTIONS);
  if (!('ignored' in result)) throw new Error(`not ignored: ${JSON.stringify(result.message.text)}`);
  return result.ignored;
}

describe('replies from mail programs', () => {
  it('a Gmail reply: the quoted mail (its wrapped "On … wrote:" line) and the signature are gone, the thread root is the first reference', async () => {
    const message = await parsed(await fixture('gmail-reply'));
    expect(message.text).toBe('Thanks, it arrived today.\n\nCan I return the blue one?');
    expect(message.channelExternalId).toBe('CAJ3xgmail1-0001@mail.gmail.com');
    expect(message.channelMessageId).toBe('CAJ3xgmail2-0001@mail.gmail.com');
    expect(message.inReplyTo).toEqual(['CAJ3xgmail1-0001@mail.gmail.com', 'parley.msg_0001@shop.example']);
    expect(message.from).toEqual({
      externalId: 'jane.doe@example.com',
      email: 'jane.doe@example.com',
      displayName: 'Jane Doe',
      firstName: 'Jane',
      lastName: 'Doe',
    });
    expect(message.context).toEqual({ subject: 'Re: Where is my order?' });
    expect(message.conversationHint).toBe('conv_1234abcd');
    expect(message.repliedMessageHint).toBe('msg_0001');
  });

  it('an Outlook reply: "-----Original Message-----" and the From/Sent block below it are gone; "Last, First" names', async () => {
    const message = await parsed(await fixture('outlook-reply'));
    expect(message.text).toBe('Yes, please cancel it and refund the card.\n\nJane');
    expect(message.channelExternalId).toBe('parley.msg_0002@shop.example');
    expect(message.from).toMatchObject({ displayName: 'Doe, Jane', firstName: 'Jane', lastName: 'Doe' });
    expect(message.conversationHint).toBeUndefined();
  });

  it('an Apple Mail reply: "Sent from my iPhone" and the quoted "> On … wrote:" are gone, quoted-printable decoded', async () => {
    const message = await parsed(await fixture('apple-reply'));
    expect(message.text).toBe('Sounds good, see you then—I’ll be home all day.');
    expect(message.channelExternalId).toBe('apple-first-0001@icloud.example');
    expect(message.inReplyTo).toEqual(['apple-first-0001@icloud.example', 'parley.msg_0003@shop.example']);
  });

  it('an HTML-only Outlook mail: its text without the reply header block; the attachment kept, the inline logo dropped', async () => {
    const message = await parsed(await fixture('outlook-html-only'));
    expect(message.text).toBe('Please find the invoice attached.\n\nThanks,\nMax');
    expect(message.attachments.map(({ name, mimeType }) => ({ name, mimeType }))).toEqual([
      { name: 'invoice-1042.pdf', mimeType: 'application/pdf' },
    ]);
    expect(Buffer.from(message.attachments[0]?.content ?? []).toString('latin1')).toMatch(/^%PDF-1\.4/);
    expect(message.channelExternalId).toBe('DB9PR01MB5555.eurprd01.prod.outlook.com');
    expect(message.inReplyTo).toEqual([]);
  });

  it('HTML alternative only (no text part): converted to text, whitespace collapsed', async () => {
    const raw = await rawMail({ text: undefined, html: '<p>Hello&nbsp;&nbsp;   there,</p><p></p><p></p><p>is the <b>shop</b> open?</p>' });
    expect((await parsed(raw)).text).toBe('Hello there,\n\nis the shop open?');
  });
});

describe('threads', () => {
  it('a first mail is its own thread; In-Reply-To alone names the root when References is missing', async () => {
    const first = await parsed(await rawMail({ messageId: '<first@example.com>' }));
    expect(first).toMatchObject({ channelExternalId: 'first@example.com', channelMessageId: 'first@example.com', inReplyTo: [] });
    const reply = await parsed(await rawMail({ messageId: '<second@example.com>', inReplyTo: '<first@example.com>' }));
    expect(reply).toMatchObject({ channelExternalId: 'first@example.com', inReplyTo: ['first@example.com'] });
  });

  it('References and In-Reply-To together, deduplicated, oldest first', async () => {
    const reply = await parsed(
      await rawMail({ messageId: '<c@example.com>', references: ['<a@example.com>', '<b@example.com>'], inReplyTo: '<b@example.com>' }),
    );
    expect(reply).toMatchObject({ channelExternalId: 'a@example.com', inReplyTo: ['a@example.com', 'b@example.com'] });
  });

  it('names the newest Parley mail it answers: In-Reply-To first, else the last of ours in References', async () => {
    const only = await parsed(await rawMail({ inReplyTo: '<parley.01abc@shop.example>' }));
    expect(only).toMatchObject({ channelExternalId: 'parley.01abc@shop.example', repliedMessageHint: '01abc' });
    const listed = await parsed(
      await rawMail({ references: ['<x@example.com>', '<parley.m1@shop.example>', '<parley.m2@shop.example>', '<y@example.com>'] }),
    );
    expect(listed.repliedMessageHint).toBe('m2');
    expect((await parsed(await rawMail({ inReplyTo: '<x@example.com>' }))).repliedMessageHint).toBeUndefined();
  });

  it('a mail without a Message-ID gets a stable one from its bytes', async () => {
    const raw = Buffer.from('From: jane@example.com\r\nTo: support@shop.example\r\nSubject: no id\r\n\r\nHello\r\n');
    const first = await parsed(raw);
    expect(first.channelMessageId).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect((await parsed(Buffer.from(raw))).channelMessageId).toBe(first.channelMessageId);
    expect(first.channelExternalId).toBe(first.channelMessageId);
  });

  it('the plus tag of the envelope recipient, of To or Delivered-To names the conversation; other tags do not', async () => {
    expect((await parsed(await rawMail({ to: 'support@shop.example' }), { recipient: 'Support+Conv_ABCDEF12@shop.example' })).conversationHint).toBe(
      'conv_abcdef12',
    );
    expect((await parsed(await rawMail({ to: 'support+conv_99999999@shop.example' }))).conversationHint).toBe('conv_99999999');
    expect((await parsed(await rawMail({ headers: { 'Delivered-To': 'support+abcdefgh1234@shop.example' } }))).conversationHint).toBe('abcdefgh1234');
    expect((await parsed(await rawMail({ to: 'support+shop@shop.example' }))).conversationHint).toBeUndefined();
    expect((await parsed(await rawMail({ to: 'support+has-dash-1234@shop.example' }))).conversationHint).toBeUndefined();
  });
});

describe('mail that is no conversation is ignored', () => {
  it.each([
    ['Auto-Submitted: auto-replied', { headers: { 'Auto-Submitted': 'auto-replied' } }, /Auto-Submitted/],
    ['Auto-Submitted: auto-generated', { headers: { 'Auto-Submitted': 'auto-generated' } }, /Auto-Submitted/],
    ['Precedence: bulk', { headers: { Precedence: 'bulk' } }, /bulk/],
    ['Precedence: auto_reply', { headers: { Precedence: 'auto_reply' } }, /Precedence/],
    ['X-Autoreply', { headers: { 'X-Autoreply': 'yes' } }, /automatic/],
    ['X-Autorespond', { headers: { 'X-Autorespond': 'Out of office' } }, /automatic/],
    ['a newsletter (List-Unsubscribe)', { headers: { 'List-Unsubscribe': '<mailto:unsubscribe@news.example>' } }, /list/],
    ['a mailing list (List-Id)', { headers: { 'List-Id': 'Shop users <users.lists.example>' } }, /list/],
    ['a bounce from MAILER-DAEMON', { from: 'Mail Delivery System <MAILER-DAEMON@mx.example.com>' }, /bounce/],
    ['a bounce from postmaster', { from: 'postmaster@mx.example.com' }, /bounce/],
    ['our own mail (X-Parley-Connection)', { headers: { 'X-Parley-Connection': 'conn_other' } }, /Parley/],
    ['our own Message-ID', { messageId: '<parley.msg_42@shop.example>' }, /Parley/],
  ])('%s', async (_name, options, reason) => {
    expect(await ignored(await rawMail(options))).toMatch(reason);
  });

  it('our own reply through this very connection says so', async () => {
    expect(await ignored(await rawMail({ headers: { 'X-Parley-Connection': 'conn_1' } }))).toBe(
      'sent by Parley (X-Parley-Connection, this connection)',
    );
  });

  it('a mail without a sender address', async () => {
    expect(await ignored(Buffer.from('To: support@shop.example\r\nSubject: who?\r\nMessage-ID: <anon@x.example>\r\n\r\nHello\r\n'))).toBe(
      'no sender address',
    );
  });

  it('Auto-Submitted: no is a person writing', async () => {
    expect((await parsed(await rawMail({ headers: { 'Auto-Submitted': 'no' } }))).text).toBe('Hi there');
  });

  it('a bounce by its empty Return-Path', async () => {
    expect(await ignored(Buffer.concat([Buffer.from('Return-Path: <>\r\n'), await rawMail({})]))).toBe('bounce');
  });

  it('a delivery report (multipart/report)', async () => {
    const raw = Buffer.from(
      [
        'From: Mail System <mailer@mx.example.com>',
        'To: support@shop.example',
        'Subject: Undelivered Mail Returned to Sender',
        'Message-ID: <report-1@mx.example.com>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain',
        '',
        'Your message could not be delivered.',
        '--b1',
        'Content-Type: message/delivery-status',
        '',
        'Status: 5.1.1',
        '--b1--',
        '',
      ].join('\r\n'),
    );
    expect(await ignored(raw)).toBe('bounce');
  });
});

describe('attachments', () => {
  it('those within the limit are kept; larger ones are dropped and named in the context', async () => {
    const raw = await rawMail({
      attachments: [
        { filename: 'small.txt', content: 'a'.repeat(1_000), contentType: 'text/plain' },
        { filename: 'big.bin', content: Buffer.alloc(1_001, 1), contentType: 'application/octet-stream' },
        { filename: 'photo.jpg', content: Buffer.alloc(5_000, 2), contentType: 'image/jpeg' },
      ],
    });
    const message = await parsed(raw);
    expect(message.attachments).toHaveLength(1);
    expect(message.attachments[0]).toMatchObject({ name: 'small.txt', mimeType: 'text/plain' });
    expect(message.attachments[0]?.content.byteLength).toBe(1_000);
    expect(message.context).toEqual({ subject: 'Hello', droppedAttachments: 'big.bin, photo.jpg' });
    expect(message.droppedAttachments).toEqual(['big.bin', 'photo.jpg']);
  });

  it('a mail of attachments only has empty text', async () => {
    const message = await parsed(
      await rawMail({ text: undefined, attachments: [{ filename: 'scan.pdf', content: '%PDF-1.4', contentType: 'application/pdf' }] }),
    );
    expect(message.text).toBe('');
    expect(message.attachments.map((attachment) => attachment.name)).toEqual(['scan.pdf']);
  });
});
