/**
 * Synthetic chunks for the store benches: clustered unit vectors (so approximate search faces a
 * realistic neighbourhood structure, not uniform noise where every point is equally far) and text drawn
 * from a Zipf-distributed made-up vocabulary (so keyword posting lists have realistic skew).
 * Everything comes from a seeded generator: the same flags give the same data.
 */

/** Standard normal samples (Box–Muller). */
export function gaussian(random: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const value = spare;
      spare = undefined;
      return value;
    }
    const u = Math.max(random(), Number.MIN_VALUE);
    const radius = Math.sqrt(-2 * Math.log(u));
    const angle = 2 * Math.PI * random();
    spare = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  };
}

function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i += 1) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i += 1) vector[i] = vector[i]! / norm;
  return vector;
}

/** Writes into `vector` the unit vector of `around` plus Gaussian noise of `sigma` per dimension. */
function placeNear(vector: Float32Array, around: Float32Array, sigma: number, normal: () => number): void {
  for (let i = 0; i < vector.length; i += 1) vector[i] = around[i]! + sigma * normal();
  normalize(vector);
}

export interface ClusterModel {
  dimensions: number;
  /** Unit cluster centres, one row each. */
  centres: Float32Array[];
  /** Norm of the noise added to a centre before normalizing (1 ≈ cosine 0.7 to the centre). */
  noise: number;
}

export function clusterModel(dimensions: number, clusters: number, noise: number, random: () => number): ClusterModel {
  const normal = gaussian(random);
  const centres = Array.from({ length: clusters }, () => normalize(Float32Array.from({ length: dimensions }, normal)));
  return { dimensions, centres, noise };
}

/** `count` unit vectors, each a random centre plus Gaussian noise, packed row after row. */
export function sampleVectors(model: ClusterModel, count: number, random: () => number): Float32Array {
  const { dimensions, centres, noise } = model;
  const normal = gaussian(random);
  const sigma = noise / Math.sqrt(dimensions);
  const packed = new Float32Array(count * dimensions);
  for (let row = 0; row < count; row += 1) {
    const centre = centres[Math.floor(random() * centres.length)]!;
    placeNear(packed.subarray(row * dimensions, (row + 1) * dimensions), centre, sigma, normal);
  }
  return packed;
}

/**
 * `perChunk` window vectors around each of `chunks`' rows, packed chunk after chunk: the chunk's vector
 * plus Gaussian noise of norm `noise`, as the windows of one passage read alike without being the same.
 */
export function sampleWindows(chunks: Float32Array, dimensions: number, perChunk: number, noise: number, random: () => number): Float32Array {
  const normal = gaussian(random);
  const sigma = noise / Math.sqrt(dimensions);
  const count = chunks.length / dimensions;
  const packed = new Float32Array(count * perChunk * dimensions);
  for (let row = 0; row < count * perChunk; row += 1) {
    const chunk = rowOf(chunks, dimensions, Math.floor(row / perChunk));
    placeNear(packed.subarray(row * dimensions, (row + 1) * dimensions), chunk, sigma, normal);
  }
  return packed;
}

export const rowOf = (packed: Float32Array, dimensions: number, row: number): Float32Array =>
  packed.subarray(row * dimensions, (row + 1) * dimensions);

/**
 * The exact `k` nearest rows to `query` by dot product (cosine, the rows being unit vectors), best first,
 * among `rows` (all of them when absent): the ground truth recall is measured against.
 */
export function exactNearest(packed: Float32Array, dimensions: number, query: Float32Array, k: number, rows?: readonly number[]): number[] {
  const bestRows: number[] = [];
  const bestScores: number[] = [];
  const count = rows?.length ?? packed.length / dimensions;
  for (let n = 0; n < count; n += 1) {
    const row = rows ? rows[n]! : n;
    const base = row * dimensions;
    let dot = 0;
    for (let i = 0; i < dimensions; i += 1) dot += packed[base + i]! * query[i]!;
    if (bestScores.length === k && dot <= bestScores[k - 1]!) continue;
    let at = bestScores.length;
    while (at > 0 && bestScores[at - 1]! < dot) at -= 1;
    bestScores.splice(at, 0, dot);
    bestRows.splice(at, 0, row);
    if (bestScores.length > k) {
      bestScores.pop();
      bestRows.pop();
    }
  }
  return bestRows;
}

/**
 * The most frequent English words, which take the top Zipf ranks as in real text (where they are ~40% of
 * tokens); query pipelines drop most of them as stopwords.
 */
export const COMMON_ENGLISH_WORDS = (
  'the of and to a in is that for it as was with be by on not he i this are or his from at which but have an ' +
  'they you were her she there been one all we their has would when if so no will more can who'
).split(' ');

/**
 * `size` distinct words ranked by frequency: the common English words first, then made-up ones
 * ("tovaki", "rembu"…) that the tokenizer and stemmer see as ordinary lower-case words.
 */
export function makeVocabulary(size: number, random: () => number): string[] {
  const onsets = ['', 'b', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'ch', 'st', 'tr'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
  const words = new Set<string>(COMMON_ENGLISH_WORDS.slice(0, size));
  while (words.size < size) {
    const syllables = 2 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s += 1) {
      word += onsets[Math.floor(random() * onsets.length)]! + vowels[Math.floor(random() * vowels.length)]!;
    }
    words.add(word);
  }
  return [...words];
}

/** Draws vocabulary indices with probability ∝ 1 / rank^exponent (Zipf, as in natural text). */
export function zipfSampler(size: number, exponent: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank += 1) cumulative[rank] = total += 1 / Math.pow(rank + 1, exponent);
  return () => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

export function sampleText(vocabulary: readonly string[], word: () => number, words: number): string {
  return Array.from({ length: words }, () => vocabulary[word()]!).join(' ');
}
