import fs from 'node:fs';
import os from 'node:os';
import { figure, seconds, type Figure } from './figures.js';

/** Busy CPU time of the whole machine so far, in seconds (Linux /proc/stat); undefined elsewhere. */
function machineBusySeconds(): number | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
    const ticks = [user, nice, system, irq, softirq, steal].reduce((sum: number, value) => sum + (value ?? 0), 0);
    return ticks / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** How busy the machine was during a measured stretch, and how much of it was this process. */
export interface CpuFigures {
  wall: Figure;
  /** CPU time of this process, all threads (workers included). */
  own: Figure;
  /** CPU time of every other process on the machine (a database server counts here). */
  others: Figure | null;
  /** Others' CPU time over the machine's capacity for the stretch: 0 = quiet, 0.5 = half the cores busy elsewhere. */
  othersShare: Figure | null;
}

/**
 * Measures the noise around a measurement: the machine is shared, so a ratio is only as good as the
 * contention on both of its sides was alike.
 */
export class CpuMeter {
  #wall = 0;
  #own = process.cpuUsage();
  #machine: number | undefined;

  start(): this {
    this.#wall = performance.now();
    this.#own = process.cpuUsage();
    this.#machine = machineBusySeconds();
    return this;
  }

  stop(): CpuFigures {
    const wall = (performance.now() - this.#wall) / 1000;
    const usage = process.cpuUsage(this.#own);
    const own = (usage.user + usage.system) / 1e6;
    const machineEnd = machineBusySeconds();
    const others = this.#machine === undefined || machineEnd === undefined ? undefined : Math.max(0, machineEnd - this.#machine - own);
    return {
      wall: seconds(wall),
      own: seconds(own),
      others: others === undefined ? null : seconds(others),
      othersShare: others === undefined ? null : figure(others / (wall * os.availableParallelism()), 'fraction'),
    };
  }
}
