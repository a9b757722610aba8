import { describe, expect, it } from 'vitest';
import { FALLBACK_NAME, MAX_NAME_LENGTH, datasourceName } from '../../src/domain/datasource-name.js';

describe('datasourceName', () => {
  it('keeps an ordinary name as it is', () => {
    expect(datasourceName('Quarterly report (final).pdf')).toBe('Quarterly report (final).pdf');
    expect(datasourceName('résumé – 日本語 🚀.docx')).toBe('résumé – 日本語 🚀.docx');
  });

  it.each([
    ['CR/LF and tabs become spaces', 'line one\r\nline two\tthree.txt', 'line one line two three.txt'],
    ['NUL and other C0 controls vanish', 'report\u0000.pdf\u0007\u0008', 'report.pdf'],
    ['DEL and C1 controls vanish', 'a\u007fb\u0080c\u009fd.txt', 'abcd.txt'],
    ['ANSI colour sequences vanish whole', '\u001b[31mred\u001b[0m.txt', 'red.txt'],
    ['C1 CSI sequences vanish whole', '\u009b1;32mgreen.txt', 'green.txt'],
    ['OSC sequences (terminal titles, links) vanish whole', '\u001b]0;pwned\u0007title.txt', 'title.txt'],
    ['a lone ESC vanishes', 'end\u001b', 'end'],
    ['bidi overrides and isolates vanish', 'invoice\u202Efdp.exe\u2066x\u2069', 'invoicefdp.exex'],
    ['zero-width characters and BOM vanish', '\uFEFFze\u200Bro\u200C\u200D\u2060.md', 'zero.md'],
    ['a joined emoji falls apart into its parts', '👩\u200D🔬.txt', '👩🔬.txt'],
    ['lone surrogates vanish', 'half\uD800.txt', 'half.txt'],
    ['whitespace runs collapse and ends are trimmed', '  a \u00a0\u2028  b  ', 'a b'],
  ])('%s', (_rule, raw, expected) => {
    expect(datasourceName(raw)).toBe(expected);
  });

  it('cuts a long name to the limit, keeping its extension', () => {
    const name = datasourceName(`${'a'.repeat(10_000)}.pdf`);
    expect([...name]).toHaveLength(MAX_NAME_LENGTH);
    expect(name.endsWith('a.pdf')).toBe(true);
    const noExtension = datasourceName('b'.repeat(10_000));
    expect(noExtension).toBe('b'.repeat(MAX_NAME_LENGTH));
  });

  it('counts characters, not UTF-16 units, and never splits a pair', () => {
    const name = datasourceName(`${'😀'.repeat(600)}.txt`);
    expect([...name]).toHaveLength(MAX_NAME_LENGTH);
    expect(name).toBe(`${'😀'.repeat(MAX_NAME_LENGTH - 4)}.txt`);
  });

  it('takes the first candidate with something printable left, else the fallback', () => {
    expect(datasourceName(undefined, 'upload.pdf')).toBe('upload.pdf');
    expect(datasourceName('\u200B\u0000 \r\n', 'from-header.pdf')).toBe('from-header.pdf');
    expect(datasourceName('', '\u001b[0m')).toBe(FALLBACK_NAME);
    expect(datasourceName()).toBe(FALLBACK_NAME);
  });
});
