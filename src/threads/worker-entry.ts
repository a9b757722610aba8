import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * How to start the worker module `name` that sits beside `moduleUrl`: from `dist/` it is plain JS; run
 * from TypeScript sources (tests, `tsx`) it needs tsx's require hook. Not `--import tsx`: piscina loads
 * the handler with require() first, and on Node 20 ESM hooks in workers each spin up their own hooks
 * thread, which failed intermittently (ERR_UNKNOWN_FILE_EXTENSION) under load.
 */
export function workerEntry(moduleUrl: string, name: string): { filename: string; execArgv?: string[] } {
  if (!moduleUrl.endsWith('.ts')) return { filename: fileURLToPath(new URL(`./${name}.js`, moduleUrl)) };
  // Resolved absolutely: independent of the working directory.
  const tsx = createRequire(moduleUrl).resolve('tsx/cjs');
  return { filename: fileURLToPath(new URL(`./${name}.ts`, moduleUrl)), execArgv: ['--require', tsx] };
}
