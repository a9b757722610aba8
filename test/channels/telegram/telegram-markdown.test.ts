import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitForTelegram, toMarkdownV2, toTelegramPlainText } from '../../../src/channels/telegram/telegram-markdown.js';
import { parseMarkdownV2 } from '../../support/fake-telegram-bot-api.js';

const RESERVED = '_*[]()~`>#+-=|{}.!\\';

/** Every part is a message Telegram takes: within the limit, valid MarkdownV2, showing what its plain text says. */
function expectSendable(parts: ReturnType<typeof splitForTelegram>, limit = 4096): void {
  for (const part of parts) {
    expect(part.markdownV2.length).toBeLessThanOrEqual(limit);
    expect(part.plain.length).toBeLessThanOrEqual(limit);
    const parsed = parseMarkdownV2(part.markdownV2);
    expect(parsed, part.markdownV2.slice(0, 200)).toMatchObject({ ok: true });
    // The plain text spells a link out (`docs (https://…)`); Telegram shows only its words.
    if (parsed.ok)
      expect(words(parsed.text)).toEqual(words(part.plain.replace(/ \((?:https?:\/\/|mailto:|tg:\/\/)(?:[^\s()]|\([^\s()]*\))+\)/g, '')));
  }
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('toMarkdownV2', () => {
  it('escapes every reserved character and the backslash outside entities', () => {
    for (const char of RESERVED) {
      const rendered = toMarkdownV2(`a ${char} b`);
      expect(rendered).toBe(`a \\${char} b`);
      expect(parseMarkdownV2(rendered)).toEqual({ ok: true, text: `a ${char} b` });
    }
    const all = `Price: 3.50 (approx.) — see #1 + {x} = y | z! ~ > < [a] _ * \` \\`;
    const parsed = parseMarkdownV2(toMarkdownV2(all));
    expect(parsed).toEqual({ ok: true, text: all });
  });

  it('converts bold, italic, code, code blocks and links into MarkdownV2 entities', () => {
    expect(toMarkdownV2('**Hello** world.')).toBe('*Hello* world\\.');
    expect(toMarkdownV2('an *italic* and _another_ one')).toBe('an _italic_ and _another_ one');
    expect(toMarkdownV2('run `npm i -g x.y` now')).toBe('run `npm i -g x.y` now');
    expect(toMarkdownV2('see [the docs](https://example.com/a_(b)) now')).toBe('see [the docs](https://example.com/a_(b\\)) now');
    expect(toMarkdownV2('```ts\nconst a = `x` + "\\\\";\n```')).toBe('```ts\nconst a = \\`x\\` + "\\\\\\\\";\n```');
  });

  it('leaves snake_case, lone stars and arithmetic as text', () => {
    const text = 'call my_function_name with 2 * 3 * 4 and a_b';
    expect(parseMarkdownV2(toMarkdownV2(text))).toEqual({ ok: true, text });
  });

  it('turns headings into bold lines and keeps list markers as text', () => {
    expect(toMarkdownV2('## Delivery times\n- Europe: 2 days\n* US: 5 days')).toBe('*Delivery times*\n\\- Europe: 2 days\n\\* US: 5 days');
  });

  it('renders the same words as plain text', () => {
    expect(toTelegramPlainText('**Bold** and [docs](https://example.com) and `x`')).toBe('Bold and docs (https://example.com) and x');
  });

  it('produces valid MarkdownV2 for adversarial answers', () => {
    const samples = [
      '*a**b*',
      '_a__b_',
      '**bold with `code` inside**',
      '```\nunclosed',
      '[link](javascript:alert(1))',
      'trailing backslash \\',
      '`` double ticks ``',
      '> quote\nnot > quote',
      '*italic*_italic_',
      '||spoiler|| ~strike~',
      'emoji 😀 and ünïcödé.',
    ];
    for (const sample of samples) expect(parseMarkdownV2(toMarkdownV2(sample)), sample).toMatchObject({ ok: true });
  });
});

describe('splitForTelegram', () => {
  it('keeps a short answer as one message', () => {
    expect(splitForTelegram('Hello **there**.')).toEqual([{ markdownV2: 'Hello *there*\\.', plain: 'Hello there.' }]);
    expect(splitForTelegram('   \n ')).toEqual([]);
  });

  it('cuts a 10,000-character answer into valid messages, at paragraph breaks, losing no word', () => {
    const paragraph = (n: number) => `Paragraph ${n}: ${'Shipping takes 3-5 days (sometimes more). '.repeat(20)}`.trim();
    const text = Array.from({ length: 12 }, (_, n) => paragraph(n)).join('\n\n');
    expect(text.length).toBeGreaterThan(10_000);
    const parts = splitForTelegram(text);
    expect(parts.length).toBeGreaterThan(2);
    expectSendable(parts);
    for (const part of parts) expect(part.plain).toMatch(/^Paragraph \d+:[\s\S]*\)\.$/);
    expect(words(parts.map((p) => p.plain).join(' '))).toEqual(words(text));
  });

  it('prefers a line break, then a sentence end, then a space', () => {
    const lines = Array.from({ length: 40 }, (_, n) => `Line ${n} says something.`).join('\n');
    for (const part of splitForTelegram(lines, 200)) expect(part.plain).toMatch(/^Line \d+[\s\S]*something\.$/);
    const sentences = Array.from({ length: 40 }, (_, n) => `Sentence ${n} is here.`).join(' ');
    for (const part of splitForTelegram(sentences, 200)) expect(part.plain).toMatch(/^Sentence \d+[\s\S]*here\.$/);
    const spaces = Array.from({ length: 100 }, (_, n) => `word${n}`).join(' ');
    const parts = splitForTelegram(spaces, 100);
    expectSendable(parts, 100);
    for (const part of parts) expect(part.plain).toMatch(/^word\d+( word\d+)*$/);
  });

  it('never cuts through an escape, even in a text made of reserved characters', () => {
    for (const limit of [16, 17, 101, 4096]) {
      const text = RESERVED.repeat(700);
      const parts = splitForTelegram(text, limit);
      expectSendable(parts, limit);
      // Backquotes pair up into code spans, underscores into italics: the words survive, not the markup.
      expect(parts.map((p) => p.plain).join('')).toBe(toTelegramPlainText(text));
      const plainOnly = '.!#+-=|{}()[]>~\\'.repeat(700);
      const plainParts = splitForTelegram(plainOnly, limit);
      expectSendable(plainParts, limit);
      expect(plainParts.map((p) => p.plain).join('')).toBe(plainOnly);
    }
  });

  it('cuts a word longer than a message without splitting a character', () => {
    const text = '😀'.repeat(5000);
    const parts = splitForTelegram(text);
    expectSendable(parts);
    expect(parts.map((p) => p.plain).join('')).toBe(text);
  });

  it('keeps entities whole, and cuts a code block longer than a message into code blocks at its lines', () => {
    const text = `Intro **bold words here** and [a link](https://example.com/x).\n\n\`\`\`python\n${Array.from({ length: 400 }, (_, n) => `print("line ${n}", a[${n}] \\ 2)`).join('\n')}\n\`\`\`\n\nDone.`;
    const parts = splitForTelegram(text);
    expect(parts.length).toBeGreaterThan(2);
    expectSendable(parts);
    for (const part of parts.slice(1, -1)) expect(part.markdownV2).toMatch(/^```python\n[\s\S]*\n```$/);
    const shown = parts.map((p) => p.plain).join('\n');
    for (let n = 0; n < 400; n++) expect(shown).toContain(`print("line ${n}", a[${n}] \\ 2)`);
    expect(parts[0]?.markdownV2).toContain('*bold words here*');
  });

  it('cuts many small entities at limits that fall anywhere', () => {
    const text = Array.from({ length: 300 }, (_, n) => `**b${n}** _i${n}_ \`c.${n}\` [l${n}](https://x.io/${n}) (${n}).`).join(' ');
    for (const limit of [50, 333, 1000, 4096]) {
      const parts = splitForTelegram(text, limit);
      expectSendable(parts, limit);
      expect(words(parts.map((p) => p.plain).join(' '))).toEqual(words(toTelegramPlainText(text)));
    }
  });
});

describe('any answer', () => {
  // Answers made of markup characters, words, spaces and line breaks: where a converter is most likely wrong.
  const answer = fc
    .array(fc.constantFrom(...RESERVED.split(''), '**', '```', '```js\n', '](https://x.io/a)', 'word', 'é', '😀', ' ', ' ', '\n', '\n\n'), {
      maxLength: 400,
    })
    .map((tokens) => tokens.join(''));

  it('converts to MarkdownV2 Telegram accepts, and splits into parts it accepts', () => {
    fc.assert(
      fc.property(answer, fc.integer({ min: 16, max: 300 }), (text, limit) => {
        expect(parseMarkdownV2(toMarkdownV2(text))).toMatchObject({ ok: true });
        const parts = splitForTelegram(text, limit);
        expectSendable(parts, limit);
        expect(words(parts.map((p) => p.plain).join(' ')).join('')).toBe(words(toTelegramPlainText(text)).join(''));
      }),
      { numRuns: Number(process.env.PARLEY_FUZZ_RUNS ?? 300), seed: Number(process.env.SEED ?? 20261129) },
    );
  });
});
