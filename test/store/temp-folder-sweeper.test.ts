import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempFolderSweeper } from '../../src/store/files/temp-folder-sweeper.js';
import { until } from '../support/until.js';

describe('the temporary folder sweeper', () => {
  let directory: string;
  let sweeper: TempFolderSweeper;
  const errors: unknown[] = [];

  beforeEach(async () => {
    directory = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-temp-sweep-'));
    sweeper = new TempFolderSweeper(directory, { orphanAfterMs: 60_000, everyMs: 50, onError: (error) => errors.push(error) });
  });
  afterEach(async () => {
    sweeper.stop();
    await fs.rm(directory, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  /** A file in the folder last written `ageMs` ago. */
  async function fileAged(name: string, ageMs: number): Promise<void> {
    const file = path.join(directory, name);
    await fs.writeFile(file, name);
    const at = new Date(Date.now() - ageMs);
    await fs.utimes(file, at, at);
  }

  it('keeps sweeping while the process runs: a process sharing the folder may crash after this one started', async () => {
    await sweeper.start();
    await fileAged('upload-of-a-process-that-crashed', 120_000);
    await fileAged('upload-under-way', 1000);
    await until(
      () => fs.readdir(directory),
      (names) => names.length === 1,
    );
    expect(await fs.readdir(directory)).toEqual(['upload-under-way']);
  });

  it('starts on a folder that does not exist yet', async () => {
    await fs.rm(directory, { recursive: true });
    await sweeper.start();
    expect(await sweeper.sweep()).toEqual([]);
  });
});
