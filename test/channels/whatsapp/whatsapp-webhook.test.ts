import { describe, expect, it } from 'vitest';
import { parseWhatsAppWebhook } from '../../../src/channels/whatsapp/whatsapp-webhook.js';

const PHONE_NUMBER_ID = '106540352242922';

/** A delivery as in Meta's webhook reference (`entry[].changes[].value`), around `value`. */
const envelope = (value: Record<string, unknown>, phoneNumberId = PHONE_NUMBER_ID) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value },
          field: 'messages',
        },
      ],
    },
  ],
});

const contacts = [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }];
const message = (type: string, content: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  envelope({
    contacts,
    messages: [
      {
        from: '16505551234',
        id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
        timestamp: '1749416383',
        type,
        [type]: content,
        ...extra,
      },
    ],
  });

describe('parsing Cloud API webhook deliveries', () => {
  it('reads a text message: the thread is the wa_id, the contact its profile name and phone number', () => {
    const { messages, receipts } = parseWhatsAppWebhook(message('text', { body: 'Does it come in another color?' }), PHONE_NUMBER_ID);
    expect(receipts).toEqual([]);
    expect(messages).toEqual([
      {
        message: {
          channelExternalId: '16505551234',
          channelMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
          text: 'Does it come in another color?',
          from: { externalId: '16505551234', phoneNumber: '+16505551234', displayName: 'Sheena Nelson' },
          attachments: [],
          context: {},
          inReplyTo: [],
        },
        media: [],
      },
    ]);
  });

  it('reads a reply to one of our messages as answering it', () => {
    const replied = message('text', { body: 'Yes please' }, { context: { from: '15550783881', id: 'wamid.ours' } });
    expect(parseWhatsAppWebhook(replied, PHONE_NUMBER_ID).messages[0]?.message.inReplyTo).toEqual(['wamid.ours']);
  });

  it('reads a reply button and a list row as the title the person chose', () => {
    const button = message('interactive', { type: 'button_reply', button_reply: { id: 'cancel-button', title: 'Cancel' } });
    const row = message('interactive', {
      type: 'list_reply',
      list_reply: { id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day' },
    });
    const template = message('button', { payload: 'Unsubscribe', text: 'Stop promotions' });
    expect(parseWhatsAppWebhook(button, PHONE_NUMBER_ID).messages[0]?.message.text).toBe('Cancel');
    expect(parseWhatsAppWebhook(row, PHONE_NUMBER_ID).messages[0]?.message.text).toBe('Priority Mail Express');
    expect(parseWhatsAppWebhook(template, PHONE_NUMBER_ID).messages[0]?.message.text).toBe('Stop promotions');
  });

  it('reads media as files to fetch by id, the caption as the text, a name for each', () => {
    const image = message('image', { caption: 'The damaged box', mime_type: 'image/jpeg', sha256: 'x', id: '1003383421387256' });
    const document = message('document', { filename: 'invoice.pdf', mime_type: 'application/pdf', sha256: 'x', id: '2003383421387256' });
    const voice = message('audio', { mime_type: 'audio/ogg; codecs=opus', sha256: 'x', id: '3003383421387256', voice: true });
    const video = message('video', { mime_type: 'video/mp4', sha256: 'x', id: '4003383421387256' });
    expect(parseWhatsAppWebhook(image, PHONE_NUMBER_ID).messages[0]).toMatchObject({
      message: { text: 'The damaged box' },
      media: [{ mediaId: '1003383421387256', name: 'image.jpg', mimeType: 'image/jpeg' }],
    });
    expect(parseWhatsAppWebhook(document, PHONE_NUMBER_ID).messages[0]).toMatchObject({ message: { text: '' }, media: [{ name: 'invoice.pdf' }] });
    expect(parseWhatsAppWebhook(voice, PHONE_NUMBER_ID).messages[0]?.media).toEqual([
      { mediaId: '3003383421387256', name: 'voice.ogg', mimeType: 'audio/ogg' },
    ]);
    expect(parseWhatsAppWebhook(video, PHONE_NUMBER_ID).messages[0]?.media[0]?.name).toBe('video.mp4');
  });

  it('reads statuses as receipts of what we sent; a failure with its reason', () => {
    const statuses = envelope({
      statuses: [
        { id: 'wamid.a', status: 'sent', timestamp: '1750263773', recipient_id: '16505551234', pricing: { billable: true, category: 'service' } },
        { id: 'wamid.a', status: 'delivered', timestamp: '1750263774', recipient_id: '16505551234' },
        { id: 'wamid.a', status: 'read', timestamp: '1750263775', recipient_id: '16505551234' },
        {
          id: 'wamid.b',
          status: 'failed',
          timestamp: '1750263776',
          recipient_id: '16505551234',
          errors: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.' }],
        },
        {
          id: 'wamid.c',
          status: 'failed',
          timestamp: '1750263777',
          recipient_id: '16505551234',
          errors: [
            {
              code: 131047,
              title: 'Re-engagement message',
              error_data: { details: 'Message failed to send because more than 24 hours have passed' },
            },
          ],
        },
      ],
    });
    const { messages, receipts } = parseWhatsAppWebhook(statuses, PHONE_NUMBER_ID);
    expect(messages).toEqual([]);
    expect(receipts.map(({ channelMessageId, state }) => [channelMessageId, state])).toEqual([
      ['wamid.a', 'sent'],
      ['wamid.a', 'delivered'],
      ['wamid.a', 'read'],
      ['wamid.b', 'failed'],
      ['wamid.c', 'failed'],
    ]);
    expect(receipts[0]?.channelExternalId).toBe('16505551234');
    expect(receipts[3]?.error).toMatch(/healthy ecosystem engagement.*131049/);
    expect(receipts[4]?.error).toMatch(/24 hours/);
  });

  it('leaves out other numbers of the app, other fields, reactions, stickers and junk', () => {
    const text = { contacts, messages: [{ from: '16505551234', id: 'wamid.x', timestamp: '1', type: 'text', text: { body: 'hi' } }] };
    expect(parseWhatsAppWebhook(envelope(text, '999'), PHONE_NUMBER_ID).messages).toEqual([]);
    expect(parseWhatsAppWebhook(message('reaction', { message_id: 'wamid.ours', emoji: '👍' }), PHONE_NUMBER_ID).messages).toEqual([]);
    expect(parseWhatsAppWebhook(message('sticker', { mime_type: 'image/webp', id: '5' }), PHONE_NUMBER_ID).messages).toEqual([]);
    expect(parseWhatsAppWebhook(message('text', { body: '   ' }), PHONE_NUMBER_ID).messages).toEqual([]);
    for (const junk of [
      null,
      [],
      'text',
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account', entry: [{ changes: [{ field: 'account_update', value: {} }] }] },
    ]) {
      expect(parseWhatsAppWebhook(junk, PHONE_NUMBER_ID)).toEqual({ messages: [], receipts: [] });
    }
  });
});
