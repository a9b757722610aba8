import { open } from 'node:fs/promises';

/** Up to `length` bytes from the start of a file (or from its end), without reading the rest. */
export async function readFileSlice(filePath: string, length: number, from: 'start' | 'end' = 'start'): Promise<Uint8Array> {
  const file = await open(filePath, 'r');
  try {
    const { size } = await file.stat();
    const bytes = Buffer.alloc(Math.min(length, size));
    const position = from === 'start' ? 0 : size - bytes.length;
    const { bytesRead } = await file.read(bytes, 0, bytes.length, position);
    return bytes.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
