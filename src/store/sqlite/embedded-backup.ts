import fs from 'node:fs/promises';
import path from 'node:path';
import { blobFileOf } from '../files/local-blob-store.js';
import { MIGRATION_NAMES } from '../migrations/index.js';
import { BackupError, describeFiles, readVerifiedManifest, writeManifest, type BackupManifest } from './backup-manifest.js';
import { snapshotSqliteDatabase } from './sqlite-snapshot.js';
import { EMBEDDED_FOLDERS } from './sqlite-store.js';

/** Where the embedded store lives: the data directory, and the SQLite file in it. */
export interface EmbeddedStoreFiles {
  dataDir: string;
  databaseFile: string;
}

/** The database's name inside a backup folder. */
const DATABASE_COPY = 'parley.sqlite';

/**
 * Backs up the embedded store into `target` (new or empty) while Parley may be running on it: the
 * database through SQLite's online backup, the uploaded files around it, then `manifest.json`.
 *
 * Files are copied before the database and again after it. A datasource's file is stored before its
 * row and deleted after it, so the two passes catch every file the snapshot points at unless one came
 * and went within the backup; that case is detected and the backup fails rather than be incomplete.
 *
 * The vector indexes are left out: they are a cache of the chunk table, rebuilt from the database on
 * a datastore's first search. A copy of the running process's index could be ahead of the snapshot
 * (it saves in the background, graph and label list one after the other), and an index that does not
 * match its database would answer with the wrong chunks.
 */
export async function backupEmbeddedStore(store: EmbeddedStoreFiles, target: string, now: Date = new Date()): Promise<BackupManifest> {
  await fs.access(store.databaseFile).catch(() => {
    throw new BackupError(`There is no embedded store at ${store.databaseFile} (check PARLEY_DATA_DIR)`);
  });
  await makeEmptyFolder(target);
  try {
    const blobs = path.join(store.dataDir, EMBEDDED_FOLDERS.blobs);
    const blobCopies = path.join(target, EMBEDDED_FOLDERS.blobs);
    await copyNewFiles(blobs, blobCopies);
    const snapshot = await snapshotSqliteDatabase(store.databaseFile, path.join(target, DATABASE_COPY));
    await copyNewFiles(blobs, blobCopies);
    const missing = await missingFiles(snapshot.fileKeys.map((key) => blobFileOf(blobCopies, key)));
    if (missing.length > 0) {
      throw new BackupError(`${missing.length} uploaded file(s) were deleted while the backup ran (${missing.join(', ')}); run it again`);
    }
    return await writeManifest(target, {
      createdAt: now.toISOString(),
      store: 'sqlite',
      migration: snapshot.migration,
      files: await describeFiles(target),
    });
  } catch (error) {
    // The folder was empty: what is in it now is this unfinished backup.
    await emptyFolder(target);
    throw error;
  }
}

/**
 * Restores the backup in `source` as the embedded store of `store.dataDir`, which must be new or empty
 * unless `force` (then the store's database, files and indexes there are replaced). Every file is checked
 * against the manifest first; nothing is written when one differs.
 */
export async function restoreEmbeddedStore(source: string, store: EmbeddedStoreFiles, { force = false } = {}): Promise<BackupManifest> {
  const manifest = await readVerifiedManifest(source);
  if (!MIGRATION_NAMES.includes(manifest.migration)) {
    throw new BackupError(
      `The backup's schema (${manifest.migration}) is newer than this Parley knows: restore it with the version that made it, or a later one`,
    );
  }
  if (!manifest.files.some((file) => file.path === DATABASE_COPY)) throw new BackupError(`The backup in ${source} holds no ${DATABASE_COPY}`);
  const leftovers = await fs.readdir(store.dataDir).catch(() => []);
  if (leftovers.length > 0) {
    if (!force) {
      throw new BackupError(
        `${store.dataDir} is not empty: restore into a new PARLEY_DATA_DIR, or add --force to replace the store in it (stop Parley first)`,
      );
    }
    await removeStore(store);
  }
  for (const file of manifest.files) {
    const to = file.path === DATABASE_COPY ? store.databaseFile : path.join(store.dataDir, ...file.path.split('/'));
    await fs.mkdir(path.dirname(to), { recursive: true });
    await fs.copyFile(path.join(source, ...file.path.split('/')), to);
  }
  return manifest;
}

async function makeEmptyFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true });
  const entries = await fs.readdir(folder);
  if (entries.length > 0) throw new BackupError(`${folder} is not empty: back up into a new or empty folder`);
}

async function emptyFolder(folder: string): Promise<void> {
  for (const entry of await fs.readdir(folder)) await fs.rm(path.join(folder, entry), { recursive: true, force: true });
}

/** Copies every file of `from` (recursively) that `to` does not have yet; a missing `from` is empty. */
async function copyNewFiles(from: string, to: string): Promise<void> {
  const entries = await fs.readdir(from, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const relative = path.relative(from, path.join(entry.parentPath, entry.name));
    const target = path.join(to, relative);
    if (await exists(target)) continue;
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Deleted since it was listed: its datasource is gone too, unless the snapshot says otherwise (checked after).
    await fs.copyFile(path.join(from, relative), target).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}

async function missingFiles(files: string[]): Promise<string[]> {
  const found = await Promise.all(files.map(exists));
  return files.filter((_, index) => !found[index]).map((file) => path.basename(file));
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/**
 * The embedded store's own files in the data directory; anything else there is left alone. The indexes go
 * too: one of the old store whose content_version happens to equal a restored datastore's would be trusted.
 */
async function removeStore(store: EmbeddedStoreFiles): Promise<void> {
  const databaseFiles = ['', '-wal', '-shm', '-journal'].map((suffix) => `${store.databaseFile}${suffix}`);
  const folders = [EMBEDDED_FOLDERS.blobs, EMBEDDED_FOLDERS.indexes].map((folder) => path.join(store.dataDir, folder));
  for (const entry of [...databaseFiles, ...folders]) await fs.rm(entry, { recursive: true, force: true });
}
