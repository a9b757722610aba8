import { describe, expect, it } from 'vitest';
import { SLACK_MESSAGE_LIMIT, fromSlackText, splitForSlack, toSlackMrkdwn } from '../../../src/channels/slack/slack-mrkdwn.js';

describe('answers as Slack mrkdwn', () => {
  it('converts bold, italic, strike-through, code, headings and links', () => {
    expect(toSlackMrkdwn('**Open** at *nine*, __not__ _ten_, ~~eight~~')).toBe('*Open* at _nine_, *not* _ten_, ~eight~');
    expect(toSlackMrkdwn('# Opening hours\nSee [our page](https://shop.example/hours?a=1&b=2).')).toBe(
      '*Opening hours*\nSee <https://shop.example/hours?a=1&amp;b=2|our page>.',
    );
    expect(toSlackMrkdwn('Run `a < b && c`')).toBe('Run `a &lt; b &amp;&amp; c`');
    expect(toSlackMrkdwn('```ts\nif (a < b) x();\n```')).toBe('```\nif (a &lt; b) x();\n```');
  });

  it('escapes &, < and > so that nothing is read as a mention or a link', () => {
    expect(toSlackMrkdwn('Tom & Jerry <@U123> <!channel> 3 > 2')).toBe('Tom &amp; Jerry &lt;@U123&gt; &lt;!channel&gt; 3 &gt; 2');
    expect(toSlackMrkdwn('[a|b](https://x.example/p|q)')).toBe('<https://x.example/p%7Cq|a¦b>');
  });

  it('leaves list markers and lone asterisks alone', () => {
    expect(toSlackMrkdwn('* one\n* two\n2 * 3 = 6')).toBe('* one\n* two\n2 * 3 = 6');
  });
});

describe('splitting long answers', () => {
  it('keeps a short answer whole', () => {
    expect(splitForSlack('Hello **there**')).toEqual(['Hello *there*']);
    expect(splitForSlack('   \n ')).toEqual([]);
  });

  it('cuts between paragraphs under the limit, losing no words', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(40).trim()}.`);
    const parts = splitForSlack(paragraphs.join('\n\n'), 1000);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1000);
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
  });

  it('cuts a line longer than a message between words, never inside a link or an escape', () => {
    const line = Array.from({ length: 400 }, (_, i) => (i % 7 === 0 ? `[link ${i}](https://x.example/${i}) & more` : `word${i}`)).join(' ');
    const parts = splitForSlack(line, 300);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(300);
      expect(part.split('<').length).toBe(part.split('>').length);
      expect(part).not.toMatch(/&(?!amp;)/);
    }
    expect(parts.join(' ')).toBe(toSlackMrkdwn(line));
  });

  it('closes a code block cut in two and opens it again', () => {
    const code = Array.from({ length: 200 }, (_, i) => `line ${i} of the code`).join('\n');
    const parts = splitForSlack(`Here:\n\`\`\`\n${code}\n\`\`\`\nDone.`, 500);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(500);
      expect(part.split('```').length % 2).toBe(1);
    }
  });

  it('uses Slack’s recommended length by default', () => {
    const parts = splitForSlack('x '.repeat(5000));
    expect(parts.length).toBe(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(SLACK_MESSAGE_LIMIT);
  });
});

describe('people’s messages as plain words', () => {
  it('drops the bot’s mention, names other mentions, channels and links, and undoes escapes', () => {
    expect(fromSlackText('<@U0BOT> when do you open?', 'U0BOT')).toBe('when do you open?');
    expect(fromSlackText('ask <@U0ADA|ada> in <#C0SUPPORT|support>', 'U0BOT')).toBe('ask @ada in #support');
    expect(fromSlackText('see <https://shop.example|the shop> or <https://shop.example>')).toBe(
      'see the shop (https://shop.example) or https://shop.example',
    );
    expect(fromSlackText('a &lt; b &amp;&amp; c &gt; d')).toBe('a < b && c > d');
    expect(fromSlackText('<!here> anyone?')).toBe('@here anyone?');
  });
});
