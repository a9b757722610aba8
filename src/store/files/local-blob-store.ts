import fs from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../ports/blob-store.js';

/** Where the blob `key` lives under `directory`. Keys are ours (ids), but never let one escape the folder. */
export function blobFileOf(directory: string, key: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(key)) throw new Error(`invalid blob key ${key}`);
  return path.join(directory, key.slice(0, 2), key);
}

/** Blobs as files in one folder: the embedded default, where one machine runs everything. */
export class LocalBlobStore implements BlobStore {
  constructor(private readonly directory: string) {}

  async put(key: string, sourcePath: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(sourcePath, target);
    } catch (error) {
      // A temporary file on another filesystem cannot be renamed into place.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await fs.copyFile(sourcePath, target);
      await fs.rm(sourcePath, { force: true });
    }
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const file = this.pathOf(key);
    await fs.access(file);
    return use(file);
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    return blobFileOf(this.directory, key);
  }
}
