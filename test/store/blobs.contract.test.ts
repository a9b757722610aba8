import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { useScratchStore } from '../support/store-contract.js';
import { STORE_KINDS } from '../support/stores.js';

describe.each(STORE_KINDS)('the blobs port of the %s store', (kind) => {
  const store = useScratchStore(kind);
  let uploads: string;

  beforeAll(async () => {
    uploads = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-blob-contract-'));
  });
  afterAll(async () => {
    await fs.rm(uploads, { recursive: true, force: true });
  });

  /** A file as an upload leaves it: a temporary file the store takes over. */
  async function upload(bytes: Uint8Array): Promise<string> {
    const file = path.join(uploads, newId());
    await fs.writeFile(file, bytes);
    return file;
  }

  const read = (key: string) => store().blobs.withLocalFile(key, (file) => fs.readFile(file));

  it('gives back the bytes that were put, and what the caller’s use of them returns', async () => {
    const key = newId();
    const bytes = Buffer.from('plain text, with ünïcödé\n');
    await store().blobs.put(key, await upload(bytes));
    expect(await read(key)).toEqual(bytes);
    expect(await store().blobs.withLocalFile(key, async (file) => (await fs.stat(file)).size)).toBe(bytes.length);
  });

  it('keeps a file of several megabytes byte for byte', async () => {
    const key = newId();
    const bytes = randomBytes(2.5 * 1024 * 1024);
    await store().blobs.put(key, await upload(bytes));
    expect((await read(key)).equals(bytes)).toBe(true);
  });

  it('keeps an empty file as an empty blob', async () => {
    const key = newId();
    await store().blobs.put(key, await upload(new Uint8Array(0)));
    expect(await read(key)).toHaveLength(0);
  });

  it('replaces the blob put under a key again, leaving nothing of the old one', async () => {
    const key = newId();
    await store().blobs.put(key, await upload(randomBytes(1.5 * 1024 * 1024)));
    const replacement = Buffer.from('short');
    await store().blobs.put(key, await upload(replacement));
    expect(await read(key)).toEqual(replacement);
  });

  it('keeps blobs of different keys apart', async () => {
    const [one, two] = [newId(), newId()];
    await store().blobs.put(one, await upload(Buffer.from('one')));
    await store().blobs.put(two, await upload(Buffer.from('two')));
    expect(String(await read(one))).toBe('one');
    expect(String(await read(two))).toBe('two');
  });

  it('refuses to hand out a blob that does not exist, without calling the caller’s use', async () => {
    const use = vi.fn(async () => 'used');
    await expect(store().blobs.withLocalFile(newId(), use)).rejects.toThrow();
    expect(use).not.toHaveBeenCalled();
  });

  it('deletes a blob, and deleting one that does not exist is harmless', async () => {
    const key = newId();
    await store().blobs.put(key, await upload(Buffer.from('bye')));
    await store().blobs.delete(key);
    await expect(read(key)).rejects.toThrow();
    await expect(store().blobs.delete(key)).resolves.toBeUndefined();
    await expect(store().blobs.delete(newId())).resolves.toBeUndefined();
  });
});
