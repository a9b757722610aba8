import { test } from 'vitest';
import { startTestParley, type TestParley, type TestParleyOptions } from './parley.js';
import type { StoreKind } from './stores.js';

export type StartParley = (kind: StoreKind, options?: TestParleyOptions) => Promise<TestParley>;

/**
 * `test` with the harness as a fixture: `startParley(kind, options)` starts Parley for the file's tests,
 * and every instance it started is closed (its scratch store dropped) when the file is done, even when a
 * later setup step fails. Use it from `parleyTest.beforeAll(async ({ startParley }) => …)`.
 */
// Vitest reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
// eslint-disable-next-line no-empty-pattern
export const parleyTest = test.extend('startParley', { scope: 'file' }, async ({}, { onCleanup }) => {
  const started: TestParley[] = [];
  onCleanup(async () => {
    for (const parley of started.splice(0).reverse()) await parley.close();
  });
  const start: StartParley = async (kind, options) => {
    const parley = await startTestParley(kind, options);
    started.push(parley);
    return parley;
  };
  return start;
});
