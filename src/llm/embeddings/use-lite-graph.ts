/**
 * Runs Universal Sentence Encoder lite's graph synchronously.
 *
 * The graph takes token ids as a sparse tensor and, before its transformer, works out which of them to
 * keep (positions below 128) and where the non-padding positions of the dense batch are: two `Where`
 * ops, whose output size depends on the data, so tfjs refuses `execute()` and runs the whole graph
 * through the slower `executeAsync()` (~15 % of a short query's time). Those values are known before
 * the graph runs: every position of every text, once the ids are cropped to the window here. Feeding
 * them, and the nodes that follow from them, as inputs leaves a graph without data-dependent ops.
 * The output is bit-identical to the library's own `embed()` (tested), as long as the package's graph
 * is the one these node names come from: the model package is pinned.
 */
import * as tfjs from '@energetic-ai/core';
import type { EmbeddingsModel } from '@energetic-ai/embeddings';

/**
 * The parts of tfjs used here: exported at run time, but the package's types point at tfjs packages it
 * does not ship, so they are declared as far as this module needs them.
 */
interface Tensor {
  dataSync(): ArrayLike<number> & { slice(start: number, end: number): Float32Array };
}
interface Tfjs {
  tidy<T>(run: () => T): T;
  tensor1d(values: Int32Array | readonly number[], dtype: 'int32'): Tensor;
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor;
}
interface GraphModel {
  readonly outputs: readonly { name: string }[];
  execute(inputs: Record<string, Tensor>, output: string): Tensor | Tensor[];
}
const tf = tfjs as unknown as Tfjs;

/** The graph keeps the first 128 token positions of each text (its ClipToMaxLength). */
export const WINDOW_TOKENS = 128;

const ENCODER = 'module_apply_default/Encoder_en/KonaTransformer/';
const FED_NODES = {
  /** Positions kept by the clip: all of them, ids being cropped already. */
  kept: `${ENCODER}ClipToMaxLength/Reshape`,
  /** Dense batch shape [texts, longest]. */
  denseShape: `${ENCODER}ClipToMaxLength/Maximum`,
  /** Ids as a dense [texts, longest] matrix, -1 where a shorter text has no token. */
  dense: `${ENCODER}Encode/SparseToDense`,
  /** [text, position] of each id that is not padding. */
  tokenPositions: `${ENCODER}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`,
  /** The position within its text of each id: the timing signal's input. */
  positionInText: `${ENCODER}Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2`,
};
/** SparseToDense's default value in this graph: what padding holds. */
const PADDING = -1;

/** One row per text; each text must have at least one token id. */
export function embedTokenIds(use: EmbeddingsModel, texts: readonly number[][]): Float32Array[] {
  const rows = texts.map((ids) => ids.slice(0, WINDOW_TOKENS));
  if (rows.some((ids) => ids.length === 0)) throw new RangeError('every text needs at least one token');
  const longest = Math.max(...rows.map((ids) => ids.length));
  const count = rows.reduce((sum, ids) => sum + ids.length, 0);
  const positions = new Int32Array(count * 2);
  const positionInText = new Int32Array(count);
  const values = new Int32Array(count);
  const dense = new Int32Array(rows.length * longest).fill(PADDING);
  let next = 0;
  rows.forEach((ids, text) => {
    ids.forEach((id, position) => {
      positions[next * 2] = text;
      positions[next * 2 + 1] = position;
      positionInText[next] = position;
      values[next] = id;
      dense[text * longest + position] = id;
      next += 1;
    });
  });
  return tf.tidy(() => {
    const tokenPositions = tf.tensor2d(positions, [count, 2], 'int32');
    const graph = use.model as unknown as GraphModel;
    const output = graph.execute(
      {
        indices: tokenPositions,
        values: tf.tensor1d(values, 'int32'),
        [FED_NODES.kept]: tf.tensor1d(
          Int32Array.from({ length: count }, (_, i) => i),
          'int32',
        ),
        [FED_NODES.denseShape]: tf.tensor1d([rows.length, longest], 'int32'),
        [FED_NODES.dense]: tf.tensor2d(dense, [rows.length, longest], 'int32'),
        [FED_NODES.tokenPositions]: tokenPositions,
        [FED_NODES.positionInText]: tf.tensor1d(positionInText, 'int32'),
      },
      graph.outputs[0]!.name,
    );
    if (Array.isArray(output)) throw new Error('USE lite returned several outputs');
    const flat = output.dataSync();
    const width = flat.length / rows.length;
    return rows.map((_, text) => flat.slice(text * width, (text + 1) * width));
  });
}
