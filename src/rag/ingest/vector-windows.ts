/**
 * Window vectors: an embedding model reads only the start of a long text (the built-in one, 128 tokens:
 * some 100 words of a 400-token chunk), so a chunk longer than that is embedded as overlapping windows,
 * each short enough to be read whole, and search scores the chunk by its best window (max-sim).
 */

/** Words per window and words between window starts. */
export interface WindowShape {
  readonly words: number;
  readonly stride: number;
}

/** A window in words, for the model's input in tokens: English runs ~1.3 tokens a word in these vocabularies. */
const WORDS_PER_TOKEN = 0.7;
/** Neighbouring windows share a third of their words, so a sentence cut by one window's end is whole in the next. */
const SHARED_SHARE = 1 / 3;

/** The windows that fit a model reading `maxInputTokens` (128 → 90 words every 60). */
function windowShapeFor(maxInputTokens: number): WindowShape {
  const words = Math.max(8, Math.round(maxInputTokens * WORDS_PER_TOKEN));
  return { words, stride: words - Math.round(words * SHARED_SHARE) };
}

/**
 * How a datastore's chunks are embedded. `name` is recorded with each datasource's index, so that a change
 * (of the setting, the model's input length or the window rule) is re-embedded: `whole` when windows are
 * off or every chunk fits the model anyway (a remote model with a long input costs nothing extra).
 */
export interface VectorLayout {
  readonly name: string;
  /** Absent: one vector per chunk. */
  readonly shape?: WindowShape;
}

export const WHOLE_CHUNKS: VectorLayout = { name: 'whole' };

export function vectorLayout(windowsOn: boolean, maxInputTokens: number, chunkMaxTokens: number): VectorLayout {
  const shape = windowShapeFor(maxInputTokens);
  // A chunk of n tokens has at most n words.
  if (!windowsOn || chunkMaxTokens <= shape.words) return WHOLE_CHUNKS;
  return { name: `windows:${shape.words}/${shape.stride}`, shape };
}

/**
 * The texts embedded for one chunk: the chunk itself when it fits a window (or the layout has none), else
 * windows of `shape.words` words every `shape.stride` words, the last one ending with the chunk. Each
 * window is a slice of the chunk's text, punctuation and line breaks kept.
 */
export function vectorWindows(text: string, { shape }: VectorLayout): string[] {
  if (shape === undefined) return [text];
  const words = [...text.matchAll(/\S+/g)];
  if (words.length <= shape.words) return [text];
  const windows: string[] = [];
  for (let first = 0; ; first += shape.stride) {
    const last = Math.min(words.length, first + shape.words) - 1;
    windows.push(text.slice(words[first]!.index, words[last]!.index + words[last]![0].length));
    if (last === words.length - 1) return windows;
  }
}
