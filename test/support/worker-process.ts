import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT, childEnv, waitForOutput } from './cli.js';

/** Linux's USER_HZ, the unit of the CPU times in /proc/<pid>/stat; 100 on every common kernel. */
const CLOCK_TICKS_PER_SECOND = 100;

/** `parley worker` in a process of its own, as in scale-out mode, read through /proc while it works. */
export interface WorkerProcess {
  readonly pid: number;
  /** CPU time the process (all its threads) has used so far. */
  cpuSeconds(): number;
  /** The most resident memory the process has had (the kernel's high-water mark), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/** Starts `parley worker` from the TypeScript sources on the store that `env` points at; resolves once it runs. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
    cwd: ROOT,
    env: childEnv({ PARLEY_LOG_LEVEL: 'warn', ...env }),
  });
  await waitForOutput(child, /Parley worker .* running/, 120_000);
  const pid = child.pid!;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    pid,
    cpuSeconds() {
      // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
    },
    peakRssMb() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
