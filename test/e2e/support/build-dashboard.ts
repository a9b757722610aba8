import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCES = path.join(ROOT, 'web/dashboard');
const BUILT = path.join(ROOT, 'dist/web/dashboard/index.html');
const WIDGET_SOURCES = path.join(ROOT, 'web/widget');
const WIDGET_BUILT = path.join(ROOT, 'dist/web/widget.js');
/** Code both bundle (the API's contract: the answer stream's framing, the wire types). */
const CONTRACT_SOURCES = path.join(ROOT, 'src/contract');

const builtAt = (file: string): number => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);

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
 * Vitest global setup of the browser tests: they load the dashboard and the chat widget as Parley serves
 * them from dist/web, so build each when it is missing or older than its sources.
 */
export default function buildDashboard(): void {
  const shared = newestSource(CONTRACT_SOURCES);
  const widget = newestSource(WIDGET_SOURCES);
  if (builtAt(WIDGET_BUILT) <= Math.max(widget, shared)) {
    console.log('[browser tests] building the chat widget (its sources are newer than dist/web/widget.js)');
    execFileSync('npm', ['run', 'build:widget', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  }
  // The dashboard's widget preview bundles the widget's strings and colour rule.
  if (builtAt(BUILT) > Math.max(newestSource(SOURCES), shared, widget)) return;
  console.log('[browser tests] building the dashboard (its sources are newer than dist/web/dashboard)');
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--config', 'web/dashboard/vite.config.ts', '--logLevel', 'warn'], {
    cwd: ROOT,
    // Vitest runs with NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
