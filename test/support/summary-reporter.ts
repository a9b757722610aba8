import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** Stack lines kept per unhandled error in the closing summary: enough to find where it came from. */
const STACK_LINES = 8;

/**
 * Ends the run with the plain `N passed, N failed` line CI reads (vitest's own summary is not recognised),
 * preceded by each unhandled error in full: CI keeps only the end of the output, where vitest's own
 * report of them has long scrolled away.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && module.children.size === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    for (const error of unhandledErrors) console.log(describeUnhandled(error));
    const errors = unhandledErrors.length > 0 ? `, ${unhandledErrors.length} unhandled error${unhandledErrors.length > 1 ? 's' : ''}` : '';
    console.log(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}${errors}`);
  }
}

function describeUnhandled(error: SerializedError): string {
  const where = typeof error.VITEST_TEST_PATH === 'string' ? ` in ${error.VITEST_TEST_PATH}` : '';
  const test = typeof error.VITEST_TEST_NAME === 'string' ? ` (test: ${error.VITEST_TEST_NAME})` : '';
  const stack = (error.stack ?? '')
    .split('\n')
    .slice(1, STACK_LINES + 1)
    .join('\n');
  return `\nUnhandled ${error.name ?? 'error'}${where}${test}: ${error.message}\n${stack}`;
}
