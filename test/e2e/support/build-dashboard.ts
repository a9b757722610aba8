import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = path.join(ROOT, 'web/dashboard');
const BUILT = path.join(ROOT, 'dist/web/dashboard/index.html');

/** The newest modification time of the dashboard's sources. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * Vitest global setup of the browser tests: they load the dashboard as Parley serves it from
 * dist/web/dashboard, so build it when it is missing or older than its sources.
 */
export default function buildDashboard(): void {
  const builtAt = fs.existsSync(BUILT) ? fs.statSync(BUILT).mtimeMs : 0;
  if (builtAt > newestSource(SOURCES)) return;
  console.log('[browser tests] building the dashboard (its sources are newer than dist/web/dashboard)');
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/dashboard/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    // Vitest runs with NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
