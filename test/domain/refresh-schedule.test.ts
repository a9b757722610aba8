import { describe, expect, it } from 'vitest';
import { firstDueAt, nextDueAt, readRefreshJob, refreshIntervalOf, refreshJob } from '../../src/domain/ingestion/refresh-schedule.js';
import type { JobRecord } from '../../src/store/store.js';

const DAY_MS = 86_400_000;
const T0 = Date.parse('2026-11-02T09:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('the refresh schedule', () => {
  it('reads daily and weekly from a config; anything else, or nothing, is off', () => {
    expect(refreshIntervalOf({ refreshInterval: 'daily' })).toBe('daily');
    expect(refreshIntervalOf({ refreshInterval: 'weekly' })).toBe('weekly');
    expect(refreshIntervalOf({ refreshInterval: 'off' })).toBe('off');
    expect(refreshIntervalOf({ refreshInterval: 'hourly' })).toBe('off');
    expect(refreshIntervalOf({})).toBe('off');
  });

  it('puts the first run a period after now, and each next a period after the one due', () => {
    expect(firstDueAt('weekly', new Date(T0))).toBe(iso(T0 + 7 * DAY_MS));
    expect(nextDueAt('daily', iso(T0), new Date(T0 + 5_000))).toBe(iso(T0 + DAY_MS));
  });

  it('makes up runs missed while the workers were down once, a period from their return, not in a burst', () => {
    const back = T0 + 3 * DAY_MS + 3_600_000;
    expect(nextDueAt('daily', iso(T0), new Date(back))).toBe(iso(back + DAY_MS));
  });

  it('names one due run by one job id, whoever schedules it, and reads its target back', () => {
    const target = { workspaceId: 'ws_1', datasourceId: 'ds_1', dueAt: iso(T0) };
    const job = refreshJob(target);
    expect(job).toEqual(refreshJob({ ...target }));
    expect(job).toMatchObject({ id: `refresh:ds_1:${iso(T0)}`, kind: 'refresh-datasource', runAt: iso(T0) });
    expect(readRefreshJob(job as unknown as JobRecord)).toEqual(target);
    expect(() => readRefreshJob({ ...job, payload: {} } as unknown as JobRecord)).toThrow(/malformed/);
  });
});
