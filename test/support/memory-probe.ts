/**
 * Preloaded into a child Parley process (`--expose-gc --import`) by the bench: on SIGUSR2 it collects garbage
 * and prints its memory as one line, so a parent can read what live objects cost, not what garbage happens to
 * remain. Never loaded by Parley itself.
 */
process.on('SIGUSR2', () => {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`parley-memory ${JSON.stringify({ rss, heapUsed, external, arrayBuffers })}\n`);
});
