import SQLite from 'better-sqlite3';

/** What a backup needs to know of the database it copied. */
export interface SnapshotContents {
  /** The last migration applied. */
  migration: string;
  /** The blobs the snapshot's datasources point at. */
  fileKeys: string[];
}

/**
 * Pages per backup step. SQLite's online backup restarts whenever another connection writes between two
 * steps, so under steady writes a copy made in small steps may never finish; one step is one read
 * transaction, which WAL lets writers work beside, and its copy is the database as of that moment.
 */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database `source` to the new file `target` with the online backup API, while other
 * processes may be writing to it. The copy is left in rollback-journal mode: one self-contained file
 * (the store turns WAL on again when it opens it).
 */
export async function snapshotSqliteDatabase(source: string, target: string): Promise<SnapshotContents> {
  const database = new SQLite(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    await database.backup(target, { progress: () => ALL_PAGES });
  } finally {
    database.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return readSnapshotContents(copy);
  } finally {
    copy.close();
  }
}

function readSnapshotContents(database: SQLite.Database): SnapshotContents {
  const migration = database.prepare('select max(name) from parley_migration').pluck().get() as string;
  const fileKeys = database.prepare('select file_key from datasource where file_key is not null').pluck().all() as string[];
  return { migration, fileKeys };
}
