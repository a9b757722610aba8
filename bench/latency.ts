import { figure, ms, type Figure } from './figures.js';

/** The p-th percentile (nearest rank) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface LatencySummary {
  samples: Figure;
  p50: Figure;
  p99: Figure;
  mean: Figure;
  max: Figure;
}

export function summarizeLatencies(millis: readonly number[]): LatencySummary {
  const mean = millis.reduce((sum, value) => sum + value, 0) / Math.max(1, millis.length);
  return {
    samples: figure(millis.length, 'count'),
    p50: ms(percentile(millis, 50)),
    p99: ms(percentile(millis, 99)),
    mean: ms(mean),
    max: ms(Math.max(...millis)),
  };
}

/** Runs `task` and answers its result with the milliseconds it took. */
export async function timed<T>(task: () => Promise<T>): Promise<{ result: T; millis: number }> {
  const start = performance.now();
  const result = await task();
  return { result, millis: performance.now() - start };
}
