import path from 'node:path';
import type { Config } from './config.js';
import { BackupError } from './store/sqlite/backup-manifest.js';
import { backupEmbeddedStore, restoreEmbeddedStore, type EmbeddedStoreFiles } from './store/sqlite/embedded-backup.js';

/** The embedded store of `config`; PostgreSQL has its own tools, which know more than a copy of files would. */
function embeddedStoreOf(config: Config, command: 'backup' | 'restore'): EmbeddedStoreFiles {
  if (config.store.kind === 'postgres') {
    throw new BackupError(
      `parley ${command} covers the embedded store only; PARLEY_DATABASE_URL points at PostgreSQL, which holds everything ` +
        '(uploaded files included): back it up with pg_dump --format=custom --file parley.dump "$PARLEY_DATABASE_URL" ' +
        'and restore it with pg_restore --dbname "$PARLEY_DATABASE_URL" parley.dump',
    );
  }
  return { dataDir: config.dataDir, databaseFile: config.store.file };
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** `parley backup DIR`: a consistent copy of the running embedded store. */
export async function backupCommand(config: Config, target: string): Promise<void> {
  const folder = path.resolve(target);
  const manifest = await backupEmbeddedStore(embeddedStoreOf(config, 'backup'), folder);
  const bytes = manifest.files.reduce((total, file) => total + file.bytes, 0);
  console.log(
    `Backed up ${config.dataDir} (schema ${manifest.migration}) to ${folder}: ${manifest.files.length} file${manifest.files.length === 1 ? '' : 's'}, ${megabytes(bytes)} MB.\n` +
      'Vector indexes are not copied: each is rebuilt from the database on its first search after a restore.',
  );
}

/** `parley restore DIR [--force]`: the backup in DIR becomes the embedded store of PARLEY_DATA_DIR. */
export async function restoreCommand(config: Config, source: string, { force }: { force: boolean }): Promise<void> {
  const manifest = await restoreEmbeddedStore(path.resolve(source), embeddedStoreOf(config, 'restore'), { force });
  console.log(`Restored the backup of ${manifest.createdAt} (schema ${manifest.migration}) into ${config.dataDir}; start Parley on it.`);
}
