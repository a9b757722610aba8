import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/check-postgres.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each file opens its own SQLite file and PostgreSQL database; two cores, so two files at a time.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
