import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
// Spelled in two parts so this file does not match itself.
const OUTSIDE = ['..', '/shared'].join('');

describe('the repository stands alone', () => {
  it('no tracked file outside .ci/ reads the shared folder beside the checkout', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files
      .filter((file) => !file.startsWith('.ci/') && fs.existsSync(path.join(ROOT, file)))
      .filter((file) => {
        const text = fs.readFileSync(path.join(ROOT, file));
        return !text.includes(0) && (text.includes(OUTSIDE) || text.includes(`/work${OUTSIDE.slice(2)}`));
      });
    expect(offenders).toEqual([]);
  });
});
