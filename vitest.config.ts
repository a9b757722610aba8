import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The machine is shared and often loaded: a poll waits for what must happen, not for a second only.
    expect: { poll: { timeout: 10_000 } },
    // A file's pending calls to the runner are rejected when its process is torn down after its tests ended:
    // vitest's transport, not the code under test (which every other unhandled error still fails the run for).
    onUnhandledError: (error) => !error.message.startsWith('[vitest-worker]: Closing rpc while'),
    // Each file opens its own SQLite file and PostgreSQL database; two cores, so two files at a time.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**'],
          globalSetup: ['./test/support/check-postgres.ts'],
        },
      },
      {
        // Chromium against a real Parley; the dashboard is built first when its sources are newer than the build.
        extends: true,
        test: {
          name: 'browser',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['./test/support/check-postgres.ts', './test/e2e/support/build-dashboard.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
