import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT, childEnv, waitForOutput } from './cli.js';
import { statCpuSeconds } from './thread-cpu.js';

/** `parley worker` or `parley serve` in a process of its own, as in scale-out mode, read through /proc while it works. */
export interface WorkerProcess {
  readonly pid: number;
  /** CPU time the process (all its threads) has used so far. */
  cpuSeconds(): number;
  /** The most resident memory the process has had (the kernel's high-water mark), in MB. */
  peakRssMb(): number;
  /** The process's resident memory now (VmRSS), in bytes. */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** What a process holds once its garbage is collected (started with `memoryProbe`). */
export interface ProbedMemory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** `parley serve`: the API only, at `url`. */
export interface ServeProcess extends WorkerProcess {
  readonly url: string;
  /** The child itself: to signal it or wait for its exit. */
  readonly process: ChildProcess;
  /** Collects the process's garbage and reads its memory; only when started with `memoryProbe`. */
  probeMemory(): Promise<ProbedMemory>;
}

/** Starts `parley worker` from the TypeScript sources on the store that `env` points at; resolves once it runs. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  return (await startParleyProcess('worker', env, /Parley worker .* running/)).child;
}

/**
 * Starts `parley serve` (or `parley start`, API and workers, `withWorkers`) from the TypeScript sources on the
 * store that `env` points at, on a free port; with `memoryProbe`, able to collect its garbage and report its
 * memory on request (test/support/memory-probe.ts).
 */
export async function startServeProcess(env: Record<string, string>, { memoryProbe = false, withWorkers = false } = {}): Promise<ServeProcess> {
  const probe = memoryProbe ? ['--expose-gc', '--import', './test/support/memory-probe.ts'] : [];
  const command = withWorkers ? 'start' : 'serve';
  const { child, started, process: spawned } = await startParleyProcess(command, { PORT: '0', ...env }, /API base URL:\s+(http:\/\/\S+)/, probe);
  return {
    ...child,
    url: started[1]!,
    process: spawned,
    async probeMemory() {
      if (!memoryProbe) throw new Error('started without memoryProbe');
      const reading = waitForOutput(spawned, /parley-memory (\{.*\})/, 10_000);
      spawned.kill('SIGUSR2');
      return JSON.parse((await reading)[1]!) as ProbedMemory;
    },
  };
}

function startParleyProcess(
  command: 'worker' | 'serve' | 'start',
  env: Record<string, string>,
  startedPattern: RegExp,
  nodeOptions: readonly string[] = [],
): Promise<StartedProcess> {
  // Tests that start processes seldom ask a question: the model loads when one does (the bench turns it on).
  return startTsxProcess(
    [...nodeOptions, 'src/main.ts', command],
    { PARLEY_LOG_LEVEL: 'warn', PARLEY_EMBEDDINGS_PRELOAD: '0', ...env },
    startedPattern,
  );
}

export interface StartedProcess {
  child: WorkerProcess;
  /** The match of the line that said it runs. */
  started: RegExpMatchArray;
  process: ChildProcess;
}

/** Runs a TypeScript entry point (`args` after `node --import tsx`) until it prints `startedPattern`. */
export async function startTsxProcess(args: readonly string[], env: Record<string, string>, startedPattern: RegExp): Promise<StartedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: childEnv(env) });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  let started: RegExpMatchArray;
  try {
    started = await waitForOutput(child, startedPattern, 120_000);
  } catch (error) {
    // A process that never said it runs is not left behind.
    await stop();
    throw error;
  }
  return { child: readThroughProc(child, stop), started, process: child };
}

function readThroughProc(child: ChildProcess, stop: () => Promise<void>): WorkerProcess {
  const pid = child.pid!;
  const statusKb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return {
    pid,
    cpuSeconds: () => statCpuSeconds(`/proc/${pid}/stat`) ?? 0,
    peakRssMb: () => statusKb('VmHWM') / 1024,
    rssBytes: () => statusKb('VmRSS') * 1024,
    stop,
  };
}
