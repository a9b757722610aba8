import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where the key that seals provider API keys is kept when PARLEY_SECRET_KEY is not set. */
export const secretKeyFileOf = (dataDir: string): string => path.join(dataDir, 'secret.key');

/**
 * The key that seals the API keys of providers connected in the dashboard: PARLEY_SECRET_KEY's when set,
 * else `secret.key` in the data directory, made (32 random bytes, base64, mode 0600) by the first start.
 * Kept out of the database on purpose: a copy of the database (a backup, a dump) does not open the keys.
 * Several processes on one data directory share the file; processes on several machines need PARLEY_SECRET_KEY.
 */
export async function loadSecretKey(configured: Uint8Array | null, dataDir: string): Promise<Uint8Array> {
  if (configured !== null) return configured;
  const file = secretKeyFileOf(dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  try {
    // `wx`: two processes starting at once do not overwrite each other's key; the second reads the first's.
    await fs.writeFile(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key; restore it, or set PARLEY_SECRET_KEY`);
  return new Uint8Array(key);
}
