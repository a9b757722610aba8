/**
 * How the embedded store keeps a vector in `chunk.embedding`: its float32 bytes as a blob, so reading
 * one back is a view over the blob, not a parse.
 */
export function encodeStoredVector(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function decodeStoredVector(blob: unknown): Float32Array {
  const bytes = blob as Uint8Array;
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}
