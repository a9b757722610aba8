import { describe, expect, it } from 'vitest';
import { parseTelegramUpdate } from '../../../src/channels/telegram/telegram-update.js';

const alice = { id: 42, is_bot: false, first_name: 'Alice', last_name: 'Liddell', username: 'alice' };
const privateChat = { id: 42, type: 'private', first_name: 'Alice', username: 'alice' };

const update = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  update_id: 1,
  message: { message_id: 7, date: 1_700_000_000, chat: privateChat, from: alice, ...message },
  ...extra,
});

describe('parseTelegramUpdate', () => {
  it('reads a text message from a private chat', () => {
    expect(parseTelegramUpdate(update({ text: 'Where is my order?' }))).toEqual({
      channelExternalId: '42',
      channelMessageId: '42:7',
      text: 'Where is my order?',
      from: { externalId: '42', firstName: 'Alice', lastName: 'Liddell', username: 'alice', displayName: 'Alice Liddell' },
      attachments: [],
      context: { chatType: 'private', username: 'alice' },
      inReplyTo: [],
    });
  });

  it('reads a group message with its title, and a reply', () => {
    const group = { id: -100123, type: 'supergroup', title: 'Shop help' };
    const parsed = parseTelegramUpdate(update({ chat: group, text: 'and shipping?', reply_to_message: { message_id: 5 } }));
    expect(parsed).toMatchObject({
      channelExternalId: '-100123',
      channelMessageId: '-100123:7',
      context: { chatType: 'supergroup', chatTitle: 'Shop help', username: 'alice' },
      inReplyTo: ['-100123:5'],
    });
  });

  it("reads a photo's or a document's caption", () => {
    const photo = update({ photo: [{ file_id: 'x', file_unique_id: 'y', width: 1, height: 1 }], caption: 'Is this broken?' });
    expect(parseTelegramUpdate(photo)).toMatchObject({ text: 'Is this broken?', attachments: [] });
    expect(parseTelegramUpdate(update({ photo: [{ file_id: 'x' }] }))).toBeUndefined();
  });

  it('names commands: /start, /start@bot with a payload, others', () => {
    expect(parseTelegramUpdate(update({ text: '/start' }))).toMatchObject({ command: 'start', text: '/start' });
    expect(parseTelegramUpdate(update({ text: '/start@parley_bot campaign42' }))).toMatchObject({ command: 'start' });
    expect(parseTelegramUpdate(update({ text: '/Help me' }))).toMatchObject({ command: 'help' });
    expect(parseTelegramUpdate(update({ text: 'not /start' }))).not.toHaveProperty('command');
    expect(parseTelegramUpdate(update({ text: '/ start' }))).not.toHaveProperty('command');
  });

  it('falls back to the username, then nothing, for the display name', () => {
    expect(parseTelegramUpdate(update({ text: 'hi', from: { id: 9, is_bot: false, first_name: '', username: 'bob' } }))?.from).toEqual({
      externalId: '9',
      username: 'bob',
      displayName: '@bob',
    });
    expect(parseTelegramUpdate(update({ text: 'hi', from: { id: 9, is_bot: false } }))?.from).toEqual({ externalId: '9' });
  });

  it('ignores edits, channel posts, service messages, bots and empty text', () => {
    expect(parseTelegramUpdate({ update_id: 1, edited_message: update({ text: 'edited' }).message })).toBeUndefined();
    expect(parseTelegramUpdate({ update_id: 1, channel_post: { message_id: 1, chat: { id: -1, type: 'channel' }, text: 'x' } })).toBeUndefined();
    expect(parseTelegramUpdate(update({ chat: { id: -1, type: 'channel' }, text: 'post' }))).toBeUndefined();
    expect(parseTelegramUpdate(update({ new_chat_members: [alice] }))).toBeUndefined();
    expect(parseTelegramUpdate(update({ text: 'beep', from: { id: 1, is_bot: true, first_name: 'Bot' } }))).toBeUndefined();
    expect(parseTelegramUpdate(update({ text: '   ' }))).toBeUndefined();
  });

  it('returns undefined for junk without throwing', () => {
    const junk: unknown[] = [
      null,
      undefined,
      42,
      'update',
      [],
      {},
      { message: null },
      { message: [] },
      { message: { text: 'no ids' } },
      { message: { message_id: '7', chat: privateChat, from: alice, text: 'x' } },
      { message: { message_id: 7, chat: { id: '42', type: 'private' }, from: alice, text: 'x' } },
      { message: { message_id: 7, chat: privateChat, from: { id: 1.5 }, text: 'x' } },
      { message: { message_id: 7, chat: privateChat, from: alice, text: 12 } },
      { message: { message_id: Number.MAX_VALUE, chat: privateChat, from: alice, text: 'x' } },
    ];
    for (const value of junk) expect(parseTelegramUpdate(value)).toBeUndefined();
  });
});
