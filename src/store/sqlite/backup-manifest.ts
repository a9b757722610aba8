import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** A backup or restore that cannot be done as asked; the message says why and what to do. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

export const MANIFEST_FILE = 'manifest.json';
const FORMAT = 'parley-backup';
const FORMAT_VERSION = 1;

export interface BackedUpFile {
  /** Relative to the backup folder, `/`-separated. */
  path: string;
  bytes: number;
  sha256: string;
}

/** What `manifest.json` of a backup folder says: written last, so its presence marks a finished backup. */
export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: typeof FORMAT_VERSION;
  createdAt: string;
  store: 'sqlite';
  /** The database's schema level: the last migration applied. */
  migration: string;
  files: BackedUpFile[];
}

/** Every file under `folder` (recursively), described with its size and hash. */
export async function describeFiles(folder: string): Promise<BackedUpFile[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
  const described = await Promise.all(
    files.map(async (file) => ({ path: file.split(path.sep).join('/'), ...(await measure(path.join(folder, file))) })),
  );
  return described.sort((a, b) => a.path.localeCompare(b.path));
}

export async function writeManifest(folder: string, manifest: Omit<BackupManifest, 'format' | 'formatVersion'>): Promise<BackupManifest> {
  const complete: BackupManifest = { format: FORMAT, formatVersion: FORMAT_VERSION, ...manifest };
  await fs.writeFile(path.join(folder, MANIFEST_FILE), `${JSON.stringify(complete, null, 2)}\n`);
  return complete;
}

/** Reads the manifest of the backup in `folder` and checks every file it lists against its size and hash. */
export async function readVerifiedManifest(folder: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(folder, MANIFEST_FILE), 'utf8');
  } catch {
    throw new BackupError(`${folder} has no ${MANIFEST_FILE}: not a Parley backup, or one that did not finish`);
  }
  const manifest = parseManifest(text, folder);
  for (const file of manifest.files) {
    const found = await measure(path.join(folder, file.path)).catch(() => undefined);
    if (found === undefined) throw new BackupError(`${file.path} is missing from the backup in ${folder}`);
    if (found.bytes !== file.bytes || found.sha256 !== file.sha256) {
      throw new BackupError(`${file.path} in ${folder} is not the file the backup wrote (size or SHA-256 differs)`);
    }
  }
  return manifest;
}

function parseManifest(text: string, folder: string): BackupManifest {
  const bad = (why: string) => new BackupError(`The manifest of ${folder} is not valid: ${why}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (!isRecord(value) || value.format !== FORMAT) throw bad(`not a ${FORMAT} manifest`);
  if (value.formatVersion !== FORMAT_VERSION) throw bad(`format version ${String(value.formatVersion)}; this Parley reads version ${FORMAT_VERSION}`);
  if (value.store !== 'sqlite' || typeof value.migration !== 'string' || typeof value.createdAt !== 'string' || !Array.isArray(value.files)) {
    throw bad('store, migration, createdAt or files missing');
  }
  const files = value.files.map((file: unknown) => {
    if (!isRecord(file) || typeof file.path !== 'string' || typeof file.bytes !== 'number' || typeof file.sha256 !== 'string') {
      throw bad('a file entry lacks path, bytes or sha256');
    }
    // The restore writes each file at its path: none may point outside the folder.
    if (path.isAbsolute(file.path) || file.path.split('/').includes('..')) throw bad(`file path ${file.path} leaves the folder`);
    return { path: file.path, bytes: file.bytes, sha256: file.sha256 };
  });
  return { format: FORMAT, formatVersion: FORMAT_VERSION, store: 'sqlite', migration: value.migration, createdAt: value.createdAt, files };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

async function measure(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return { bytes: (await fs.stat(file)).size, sha256: hash.digest('hex') };
}
