/**
 * How every measured number is reported: a value with its unit, so results.json can be read without
 * this code. Ratios are unit `x` (measured / baseline of the same run).
 */
export interface Figure {
  value: number;
  unit: string;
}

/** Three significant digits: the machine is noisy, more would be false precision. */
export function figure(value: number, unit: string): Figure {
  if (!Number.isFinite(value)) return { value, unit };
  const magnitude = Math.abs(value) < 1e-9 ? 0 : Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, 2 - magnitude);
  return { value: Number(value.toFixed(Math.min(decimals, 6))), unit };
}

export const ms = (value: number): Figure => figure(value, 'ms');
export const seconds = (value: number): Figure => figure(value, 's');
export const megabytes = (bytes: number): Figure => figure(bytes / (1024 * 1024), 'MiB');
export const kibibytes = (bytes: number): Figure => figure(bytes / 1024, 'KiB');
export const ratio = (measured: number, baseline: number): Figure => figure(measured / baseline, 'x');

/** A goal next to the figure it judges: `met` is computed, never asserted. */
export interface Goal {
  description: string;
  met: boolean;
}

export function goal(description: string, met: boolean): Goal {
  return { description, met };
}
