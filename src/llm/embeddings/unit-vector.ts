/**
 * Copies an embedding into a Float32Array scaled to unit length, so cosine similarity is a dot product.
 * Computed in float64; a zero vector stays zero.
 */
export function toUnitVector(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += (values[i] ?? 0) ** 2;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  const vector = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) vector[i] = (values[i] ?? 0) * scale;
  return vector;
}
