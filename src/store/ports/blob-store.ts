/** Blobs: the bytes of uploaded files and fetched pages, by key. */

/**
 * Uploaded files: a folder under the data directory (embedded) or the database itself (PostgreSQL).
 *
 * Workspace-free: a key is an opaque, unique name (a datasource's `fileKey`), not workspace data one could
 * look up. Callers reach a key only through a record they read in its workspace.
 */
export interface BlobStore {
  /** Moves or copies the file at `sourcePath` into the store under `key`. */
  put(key: string, sourcePath: string): Promise<void>;
  /** Runs `use` with a local path holding the blob's bytes (a temporary copy when the store is remote). */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
}
