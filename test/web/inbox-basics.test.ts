import { describe, expect, it } from 'vitest';
import { browserName } from '../../web/dashboard/src/pages/inbox/browser-name.js';
import { insertReply, matchingReplies, slashTokenAt, type PickableReply } from '../../web/dashboard/src/pages/inbox/saved-reply-picker.js';

describe('a browser named from its user agent', () => {
  it.each([
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome 131 on macOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131 on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox 133 on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari 18 on iOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
      'Chrome 131 on iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
      'Samsung Internet 26 on Android',
    ],
    ['curl/8.5.0', null],
  ])('%s', (userAgent, name) => {
    expect(browserName(userAgent)).toBe(name);
  });
});

describe('saved replies in the composer', () => {
  const reply = (shortcut: string, title: string, text = `${title}.`): PickableReply => ({ shortcut, title, text });
  const replies = [reply('hello', 'Greeting'), reply('refund-policy', 'Refund policy'), reply('shipping', 'Free returns')];

  it('opens on a slash that starts a word, up to the caret', () => {
    expect(slashTokenAt('/', 1)).toEqual({ start: 0, query: '' });
    expect(slashTokenAt('Hi! /ref', 8)).toEqual({ start: 4, query: 'ref' });
    expect(slashTokenAt('line\n/he', 8)).toEqual({ start: 5, query: 'he' });
    expect(slashTokenAt('and/or', 6)).toBeUndefined();
    expect(slashTokenAt('/ref done', 9)).toBeUndefined();
    expect(slashTokenAt('https://x', 9)).toBeUndefined();
  });

  it('offers shortcuts that start with the query first, then those that contain it in the shortcut or title', () => {
    expect(matchingReplies(replies, '').map((r) => r.shortcut)).toEqual(['hello', 'refund-policy', 'shipping']);
    expect(matchingReplies(replies, 're').map((r) => r.shortcut)).toEqual(['refund-policy', 'hello', 'shipping']);
    expect(matchingReplies(replies, 'zzz')).toEqual([]);
  });

  it('replaces the slash and the query with the text, and puts the caret after it', () => {
    const text = 'Hi! /ref and more';
    expect(insertReply(text, { start: 4, query: 'ref' }, 8, reply('refund-policy', 'Refund policy', 'Thirty days.'))).toEqual({
      text: 'Hi! Thirty days. and more',
      caret: 16,
    });
  });
});
