import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SharedClock } from '../../web/dashboard/src/components/shared-clock.js';

describe('the dashboard’s shared clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-11-28T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps one interval however many read it, ticks them all, and stops when the last one leaves', () => {
    const clock = new SharedClock(30_000);
    const ticks = { first: 0, second: 0 };
    const leaveFirst = clock.subscribe(() => ticks.first++);
    const leaveSecond = clock.subscribe(() => ticks.second++);
    expect(vi.getTimerCount()).toBe(1);

    vi.advanceTimersByTime(60_000);
    expect(ticks).toEqual({ first: 2, second: 2 });
    expect(clock.now()).toBe(Date.parse('2026-11-28T12:01:00Z'));

    leaveFirst();
    expect(vi.getTimerCount()).toBe(1);
    leaveSecond();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads the time anew when a reader comes after it stood idle', () => {
    const clock = new SharedClock(30_000);
    clock.subscribe(() => undefined)();
    vi.advanceTimersByTime(10 * 60_000);
    clock.subscribe(() => undefined);
    expect(clock.now()).toBe(Date.parse('2026-11-28T12:10:00Z'));
  });
});
