/**
 * The value of one series in Prometheus's text format: `name{labels}` with every given label equal (other
 * labels ignored); 0 when the series is not there yet. The registry is the process's, shared by every
 * Parley a test file starts, so tests compare before and after.
 */
export function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) total += Number(match[3]);
  }
  return total;
}
