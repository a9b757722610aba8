import { describe, expect, it } from 'vitest';
import type { OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { parseInboundMail } from '../../../src/channels/mail/inbound-mail.js';
import { composeReply, isParleyMessageId, textToHtml } from '../../../src/channels/mail/outbound-mail.js';
import { rawMail } from './raw-mail.js';

const FROM = { address: 'support@shop.example', name: 'Shop Support' };

const outgoing = (overrides: Partial<OutgoingChannelMessage> = {}): OutgoingChannelMessage => ({
  id: 'msg_0001',
  conversationId: 'conv_1234abcd',
  automatic: false,
  channelExternalId: 'first@example.com',
  text: 'Hello Jane',
  title: 'Where is my order?',
  thread: ['first@example.com'],
  to: { externalId: 'jane@example.com', email: 'jane@example.com' },
  lastInboundAt: null,
  notice: null,
  ...overrides,
});

describe('composeReply', () => {
  it('threads each reply under the whole thread so far: References grows, In-Reply-To is the newest', () => {
    const thread = ['first@example.com'];
    const sent: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const mail = composeReply({ from: FROM, message: outgoing({ id: `msg_${i}`, thread: [...thread] }), connectionId: 'conn_1' });
      expect(mail.references).toEqual(thread.map((id) => `<${id}>`));
      expect(mail.inReplyTo).toBe(`<${thread[thread.length - 1]}>`);
      expect(mail.messageId).toBe(`<parley.msg_${i}@shop.example>`);
      sent.push(String(mail.messageId));
      // The customer answers our reply: the thread now holds our mail and theirs.
      thread.push(String(mail.messageId).slice(1, -1), `answer-${i}@example.com`);
    }
    expect(thread).toHaveLength(7);
    expect(new Set(sent).size).toBe(3);
  });

  it('says Re: once, whatever the case of an existing one; an empty title gets a subject', () => {
    expect(composeReply({ from: FROM, message: outgoing(), connectionId: 'c' }).subject).toBe('Re: Where is my order?');
    expect(composeReply({ from: FROM, message: outgoing({ title: 'RE: Where is my order?' }), connectionId: 'c' }).subject).toBe(
      'RE: Where is my order?',
    );
    expect(composeReply({ from: FROM, message: outgoing({ title: 're:order' }), connectionId: 'c' }).subject).toBe('re:order');
    expect(composeReply({ from: FROM, message: outgoing({ title: '  ' }), connectionId: 'c' }).subject).toBe('Re: your message');
  });

  it('is marked as ours, addressed, and answerable to the conversation’s tagged address', () => {
    const mail = composeReply({ from: FROM, message: outgoing({ conversationId: 'CONV_1234ABCD' }), connectionId: 'conn_1' });
    expect(mail).toMatchObject({
      from: { name: 'Shop Support', address: 'support@shop.example' },
      to: 'jane@example.com',
      replyTo: 'support+conv_1234abcd@shop.example',
      headers: { 'X-Parley-Connection': 'conn_1' },
      text: 'Hello Jane',
    });
    expect(composeReply({ from: FROM, message: outgoing({ conversationId: 'short' }), connectionId: 'c' }).replyTo).toBeUndefined();
    expect(composeReply({ from: { address: 'help+x@shop.example', name: null }, message: outgoing(), connectionId: 'c' })).toMatchObject({
      from: 'help+x@shop.example',
      replyTo: 'help+conv_1234abcd@shop.example',
    });
  });

  it('says Auto-Submitted only for what the agent wrote by itself', () => {
    expect(composeReply({ from: FROM, message: outgoing({ automatic: true }), connectionId: 'c' }).headers).toEqual({
      'X-Parley-Connection': 'c',
      'Auto-Submitted': 'auto-replied',
    });
    expect(composeReply({ from: FROM, message: outgoing({ automatic: false }), connectionId: 'c' }).headers).toEqual({ 'X-Parley-Connection': 'c' });
  });

  it('a first mail with no thread has no threading headers', () => {
    const mail = composeReply({ from: FROM, message: outgoing({ thread: [] }), connectionId: 'c' });
    expect(mail.inReplyTo).toBeUndefined();
    expect(mail.references).toBeUndefined();
  });

  it('never passes the text on as HTML: escaped, in paragraphs and line breaks, **bold**, links as text', () => {
    const html = textToHtml('Hi <b>Jane</b> & co,\n\n**Your order** ships <script>alert(1)</script>\nsee https://shop.example/?a=1&b="2"\n\n\n');
    expect(html).toContain('<p>Hi &lt;b&gt;Jane&lt;/b&gt; &amp; co,</p>');
    expect(html).toContain(
      '<p><strong>Your order</strong> ships &lt;script&gt;alert(1)&lt;/script&gt;<br>\nsee https://shop.example/?a=1&amp;b=&quot;2&quot;</p>',
    );
    expect(html).not.toMatch(/<a |<script|<b>/);
    expect(composeReply({ from: FROM, message: outgoing({ text: '<img src=x onerror=alert(1)>' }), connectionId: 'c' }).html).toContain(
      '&lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('its Message-ID is recognised as ours, and its mail is never taken in again', async () => {
    const mail = composeReply({ from: FROM, message: outgoing(), connectionId: 'conn_1' });
    expect(isParleyMessageId(String(mail.messageId))).toBe(true);
    expect(isParleyMessageId('parley.msg_1@shop.example')).toBe(true);
    expect(isParleyMessageId('CAJ3x@mail.gmail.com')).toBe(false);
    expect(isParleyMessageId('x.parley.msg@shop.example')).toBe(false);
    const result = await parseInboundMail(await rawMail(mail), { maxAttachmentBytes: 1_000, ownConnectionId: 'conn_2' });
    expect(result).toEqual({ ignored: expect.stringMatching(/Parley/) as unknown });
  });
});
