import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CONTENT_TYPE, renderMetrics } from '../observability/instruments.js';

export interface MetricsServer {
  /** Where Prometheus scrapes: `http://host:port/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own, without a token: the way to scrape a `parley worker` (which serves
 * no API) and to keep metrics off the public port. Bind it where only the scraper reaches.
 */
export async function startMetricsServer({ host, port }: { host: string; port: number }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'NOT_FOUND', message: 'Only GET /metrics is served here' }));
      return;
    }
    renderMetrics().then(
      (text) => response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE }).end(text),
      () =>
        response
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'INTERNAL', message: 'The metrics could not be read' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
