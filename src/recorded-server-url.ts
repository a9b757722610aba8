import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where the last server started on this data directory answered, for the CLI's links when no
 * PARLEY_PUBLIC_URL is set: `parley users …` runs in another shell, which may not have the server's PORT.
 */
const fileOf = (dataDir: string) => path.join(dataDir, 'server-url');

export async function recordServerUrl(dataDir: string, url: string): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(fileOf(dataDir), `${url}\n`);
}

/** The address recorded by the last server on this data directory; undefined when none started here. */
export async function recordedServerUrl(dataDir: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(fileOf(dataDir), 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
