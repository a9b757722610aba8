import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startTestParley, type TestParley } from './parley.js';
import { createScratchStore, type ScratchStore, type StoreKind } from './stores.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Child-process environment: the test's own, minus any Parley settings of the developer's shell, and
 * outbound connections to this machine only, as in-process Parleys have (test/support/parley.ts).
 */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PARLEY_')));
  return { ...env, PARLEY_LOG_LEVEL: 'warn', PARLEY_OUTBOUND_ALLOW: 'loopback', ...extra };
}

/** Runs `parley ARGS` from the TypeScript sources, as `npx parley` would from the build. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: ROOT,
      env: childEnv(env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Resolves with the first match of `pattern` in the child's stdout, or rejects after `timeoutMs`. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${seen}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing ${pattern}; output:\n${seen}`));
    });
  });
}

/** A Parley on a scratch store that the commands under test open too; `close` stops it and drops the store. */
export async function startParleyForCli(kind: StoreKind): Promise<{ scratch: ScratchStore; parley: TestParley; close(): Promise<void> }> {
  const scratch = await createScratchStore(kind);
  const parley = await startTestParley(kind, { scratch });
  return {
    scratch,
    parley,
    async close() {
      await parley.close();
      await scratch.drop();
    },
  };
}
