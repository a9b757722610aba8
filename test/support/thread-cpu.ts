import { readFileSync, readdirSync } from 'node:fs';

/** Linux's USER_HZ, the unit of the CPU times in /proc/<pid>/stat; 100 on every common kernel. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) in a /proc `stat` file; undefined once the process or thread is gone. */
export function statCpuSeconds(statPath: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(statPath, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds each thread of `pid` has used so far, by thread id. */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const seconds = statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);
    if (seconds !== undefined) threads.set(Number(tid), seconds);
  }
  return threads;
}

/**
 * The threads of `pid` not in `besides` that used more than `minSeconds` of CPU over the next `ms`: a worker
 * thread at work, when `besides` holds the threads the process started with (its main thread and V8's, which
 * collect the garbage a busy worker makes). Measured per thread, so that the rest of the machine does not count.
 */
export async function busyThreads(pid: number, besides: ReadonlySet<number>, ms: number, minSeconds: number): Promise<number[]> {
  const before = threadCpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = threadCpuSeconds(pid);
  return [...after].filter(([tid, seconds]) => !besides.has(tid) && seconds - (before.get(tid) ?? seconds) > minSeconds).map(([tid]) => tid);
}

/** The ids of the threads `pid` has now. */
export const threadIds = (pid: number): Set<number> => new Set(threadCpuSeconds(pid).keys());

/** Whether thread `tid` of `pid` still exists. */
export const threadAlive = (pid: number, tid: number): boolean => statCpuSeconds(`/proc/${pid}/task/${tid}/stat`) !== undefined;
