import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { closeServer, listenOnLoopback } from './loopback-server.js';

/** What the site answers at one path. */
export interface SitePage {
  body: string | Buffer;
  contentType?: string;
  status?: number;
  /** A redirect's target (status 301 unless given). */
  location?: string;
  etag?: string;
  lastModified?: string;
  /** Other headers it is answered with. */
  headers?: Record<string, string>;
}

/** One request the site received: its path and the conditional headers it carried. */
export interface SiteRequest {
  path: string;
  /** The Host header: one site answers under several names (127.0.0.1 and localhost). */
  host?: string;
  userAgent?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  at: number;
}

/**
 * A website on loopback for crawl tests: pages set per path (404 for the others), ETag and Last-Modified
 * answered with 304 when the request carries them, redirects, and a log of every request.
 */
export class TestWebsite {
  readonly pages = new Map<string, SitePage>();
  readonly requests: SiteRequest[] = [];
  /** Paths answered by a function of the request path (an endless calendar). */
  dynamic: ((path: string) => SitePage | undefined) | undefined;
  url = '';
  readonly #server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    this.requests.push({ path, host: request.headers.host, userAgent: request.headers['user-agent'], ifNoneMatch, ifModifiedSince, at: Date.now() });
    const page = this.pages.get(path) ?? this.dynamic?.(path);
    if (page === undefined) return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    if (page.location !== undefined) return void response.writeHead(page.status ?? 301, { location: page.location }).end();
    const validators = { ...(page.etag ? { etag: page.etag } : {}), ...(page.lastModified ? { 'last-modified': page.lastModified } : {}) };
    const unchanged =
      (page.etag !== undefined && ifNoneMatch === page.etag) ||
      (page.etag === undefined && page.lastModified !== undefined && ifModifiedSince === page.lastModified);
    if (unchanged) return void response.writeHead(304, validators).end();
    response
      .writeHead(page.status ?? 200, { 'content-type': page.contentType ?? 'text/html; charset=utf-8', ...validators, ...page.headers })
      .end(page.body);
  });

  async start(): Promise<string> {
    this.url = await listenOnLoopback(this.#server);
    return this.url;
  }

  stop(): Promise<void> {
    return closeServer(this.#server);
  }

  /** The paths requested since request number `from`. */
  pathsSince(from: number): string[] {
    return this.requests.slice(from).map((request) => request.path);
  }

  /** An HTML page with a title, a paragraph of text and links. */
  static html(title: string, text: string, { links = [] as string[], head = '' } = {}): string {
    const anchors = links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
    return `<!doctype html><html><head><title>${title}</title>${head}</head><body><nav><ul>${anchors}</ul></nav><main><h1>${title}</h1><p>${text}</p></main></body></html>`;
  }

  /** A sitemap `urlset` of absolute URLs, each with its lastmod when given. */
  static urlset(entries: ReadonlyArray<{ loc: string; lastmod?: string }>): string {
    const urls = entries.map(({ loc, lastmod }) => `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`).join('');
    return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
  }

  static sitemapIndex(locations: readonly string[]): string {
    const sitemaps = locations.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>`).join('');
    return `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemaps}</sitemapindex>`;
  }

  static gzip(text: string): Buffer {
    return gzipSync(Buffer.from(text));
  }
}
