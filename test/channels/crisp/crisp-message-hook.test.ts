import { describe, expect, it } from 'vitest';
import { parseCrispHook } from '../../../src/channels/crisp/crisp-message-hook.js';

const WEBSITE = '42286ab3-b29a-4fde-8538-da0ae501d825';
const SESSION = 'session_36ba3566-9651-4790-afc8-ffedbccc317f';

/** Crisp's own example of a `message:send` hook (Web Hooks quickstart), as delivered. */
const documented = {
  website_id: WEBSITE,
  event: 'message:send',
  data: {
    website_id: WEBSITE,
    session_id: SESSION,
    type: 'text',
    content: 'Hey :)',
    from: 'user',
    origin: 'chat',
    stamped: true,
    timestamp: 1506985696616,
    fingerprint: 150698569649423,
    user: { nickname: 'visitor493603', user_id: SESSION },
  },
  timestamp: 1506985696616,
};

const withData = (data: Record<string, unknown>, event = 'message:send') => ({ ...documented, event, data: { ...documented.data, ...data } });

describe('a Crisp message:send hook as Parley’s message', () => {
  it('reads Crisp’s documented example: the session is the thread, the fingerprint the message id, the visitor who wrote', () => {
    expect(parseCrispHook(documented, WEBSITE)).toEqual({
      channelExternalId: SESSION,
      channelMessageId: '150698569649423',
      text: 'Hey :)',
      from: { externalId: SESSION, displayName: 'visitor493603' },
      attachments: [],
      context: { origin: 'chat' },
      inReplyTo: [],
    });
  });

  it('ignores operators’ messages, and what an operator or a plugin (Parley itself) sent, so that nothing loops', () => {
    expect(parseCrispHook(withData({ from: 'operator' }), WEBSITE)).toBeUndefined();
    expect(
      parseCrispHook(withData({ from: 'operator', user: { type: 'participant', nickname: 'Parley' } }, 'message:received'), WEBSITE),
    ).toBeUndefined();
    expect(parseCrispHook(withData({}, 'message:received'), WEBSITE)).toBeUndefined();
  });

  it('ignores another website’s hook (Plugin Hooks deliver every website that installed the plugin)', () => {
    expect(parseCrispHook(documented, 'another-website')).toBeUndefined();
  });

  it('ignores files, animations, notes and empty or malformed messages', () => {
    const file = { type: 'file', content: { name: 'invoice.pdf', url: 'https://storage.crisp.chat/x.pdf', type: 'application/pdf' } };
    const animation = { type: 'animation', content: { url: 'https://media.crisp.chat/x.gif', type: 'image/gif' } };
    for (const data of [
      file,
      animation,
      { type: 'note' },
      { content: '   ' },
      { session_id: '../../admin' },
      { fingerprint: 'x' },
      { fingerprint: undefined },
    ]) {
      expect(parseCrispHook(withData(data), WEBSITE)).toBeUndefined();
    }
    for (const junk of [null, 'message:send', [], { event: 'message:send' }, { event: 'session:set_email', data: {} }]) {
      expect(parseCrispHook(junk, WEBSITE)).toBeUndefined();
    }
  });

  it('falls back on the session when the visitor has no user id, and goes without a name when none is given', () => {
    expect(parseCrispHook(withData({ user: {} }), WEBSITE)?.from).toEqual({ externalId: SESSION });
  });
});
