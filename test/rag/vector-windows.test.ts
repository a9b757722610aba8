import { describe, expect, it } from 'vitest';
import { vectorLayout, vectorWindows, WHOLE_CHUNKS } from '../../src/rag/ingest/vector-windows.js';

const words = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `w${from + i}`).join(' ');

describe('vector windows', () => {
  it('cuts windows sized to the model: 90 words every 60 for the built-in 128-token model', () => {
    const layout = vectorLayout(true, 128, 400);
    expect(layout).toEqual({ name: 'windows:90/60', shape: { words: 90, stride: 60 } });
    const windows = vectorWindows(words(300), layout);
    expect(windows.map((window) => window.split(' ').length)).toEqual([90, 90, 90, 90, 60]);
    expect(windows.map((window) => window.split(' ')[0])).toEqual(['w0', 'w60', 'w120', 'w180', 'w240']);
    // Every word is in some window, and the last window ends with the chunk.
    expect(new Set(windows.flatMap((window) => window.split(' '))).size).toBe(300);
    expect(windows.at(-1)!.endsWith('w299')).toBe(true);
  });

  it('keeps a chunk that fits one window whole, the text exactly as it was', () => {
    const text = `  Title\n\n${words(89)}.  `;
    expect(vectorWindows(text, vectorLayout(true, 128, 400))).toEqual([text]);
  });

  it('slices windows out of the text, punctuation and line breaks kept', () => {
    const text = `${words(80)}.\n\nNext paragraph, with (punctuation): ${words(40, 80)}!`;
    const windows = vectorWindows(text, vectorLayout(true, 128, 400));
    expect(windows).toHaveLength(2);
    // 90 words: the first paragraph's 80, the second's first 4, then w80 to w85.
    expect(windows[0]).toBe(text.slice(0, text.indexOf(' w86')));
    expect(windows[0]).toContain('.\n\nNext paragraph, with (punctuation): w80');
    expect(windows[1]!.startsWith('w60 ')).toBe(true);
    expect(text.endsWith(windows[1]!)).toBe(true);
  });

  it('embeds chunks whole when windows are off or every chunk fits the model', () => {
    expect(vectorLayout(false, 128, 400)).toBe(WHOLE_CHUNKS);
    expect(vectorLayout(true, 8192, 400)).toBe(WHOLE_CHUNKS);
    expect(vectorWindows(words(300), WHOLE_CHUNKS)).toEqual([words(300)]);
  });

  it('scales the windows with the model’s input, a third shared between neighbours', () => {
    expect(vectorLayout(true, 512, 1000).shape).toEqual({ words: 358, stride: 239 });
    expect(vectorLayout(true, 32, 400).shape).toEqual({ words: 22, stride: 15 });
  });
});
