import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMailListener, type MailListener } from '../../../src/channels/mail/smtp-listener.js';
import { parseInboundMail } from '../../../src/channels/mail/inbound-mail.js';

const KNOWN = new Set(['support@shop.example', 'sales@shop.example']);

describe('the SMTP listener, fed by nodemailer', () => {
  let listener: MailListener;
  const received: { recipient: string; raw: Buffer }[] = [];
  const errors: unknown[] = [];
  /** How many of the next onMail calls fail. */
  let failNext = 0;

  beforeAll(async () => {
    listener = await startMailListener({
      host: '127.0.0.1',
      port: 0,
      maxMessageBytes: 20_000,
      accepts: (recipient) => Promise.resolve(KNOWN.has(recipient.toLowerCase())),
      onMail: (recipient, raw) => {
        if (failNext > 0) {
          failNext--;
          return Promise.reject(new Error('store unavailable'));
        }
        received.push({ recipient, raw });
        return Promise.resolve();
      },
      onError: (error) => errors.push(error),
    });
  });
  afterAll(() => listener.close());
  beforeEach(() => {
    received.length = 0;
    errors.length = 0;
    failNext = 0;
  });

  const sender = () => nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });

  it('takes mail for a known address and hands its bytes on', async () => {
    const info = await sender().sendMail({
      from: 'jane@example.com',
      to: 'support@shop.example',
      subject: 'Order',
      text: 'Where is it?',
      messageId: '<m1@example.com>',
    });
    expect(info.accepted).toEqual(['support@shop.example']);
    expect(received.map((mail) => mail.recipient)).toEqual(['support@shop.example']);
    const parsed = await parseInboundMail(received[0]?.raw ?? Buffer.alloc(0), { maxAttachmentBytes: 1_000, ownConnectionId: 'c' });
    expect(parsed).toMatchObject({ message: { channelMessageId: 'm1@example.com', text: 'Where is it?' } });
  });

  it('hands a mail to each known recipient once', async () => {
    await sender().sendMail({ from: 'jane@example.com', to: ['support@shop.example', 'sales@shop.example'], cc: 'support@shop.example', text: 'Hi' });
    expect(received.map((mail) => mail.recipient).sort()).toEqual(['sales@shop.example', 'support@shop.example']);
  });

  it('refuses an unknown recipient with 550', async () => {
    const error = await sender()
      .sendMail({ from: 'jane@example.com', to: 'nobody@shop.example', text: 'Hi' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ responseCode: 550 });
    expect(received).toEqual([]);
  });

  it('refuses a message over the size limit with 552', async () => {
    const error = await sender()
      .sendMail({ from: 'jane@example.com', to: 'support@shop.example', text: 'x'.repeat(50_000) })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ responseCode: 552 });
    expect(received).toEqual([]);
  });

  it('answers 451 when the mail cannot be stored, and the sender’s retry gets it in', async () => {
    failNext = 1;
    const mail = { from: 'jane@example.com', to: 'support@shop.example', text: 'Retry me', messageId: '<retry@example.com>' };
    const error = await sender()
      .sendMail(mail)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ responseCode: 451 });
    expect(errors).toHaveLength(1);
    // What a sending MTA does with a 4xx: queue the message and deliver it again later.
    await sender().sendMail(mail);
    expect(received).toHaveLength(1);
    expect(received[0]?.raw.toString()).toContain('Message-ID: <retry@example.com>');
  });
});
