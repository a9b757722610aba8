import picomatch from 'picomatch';

/** Files a link may point at that are never a page or document to index (media, code, archives, fonts). */
const NOT_A_DOCUMENT =
  /\.(avif|bmp|gif|ico|jpe?g|png|svg|tiff?|webp|css|js|mjs|map|woff2?|ttf|otf|eot|mp3|mp4|m4a|ogg|wav|webm|avi|mov|mkv|zip|gz|tgz|rar|7z|tar|bz2|xz|exe|dmg|msi|apk|iso|bin|rss|atom|xml)$/i;

/** Path patterns as a person writes them: `/docs/**`, `blog/*`; without a leading slash one is meant. */
const rooted = (pattern: string): string => (pattern.startsWith('/') || pattern.startsWith('*') ? pattern : `/${pattern}`);

/**
 * Which URLs belong to a crawl: the start URL's origin (scheme, host and port), paths that match an
 * `include` pattern (default: the start URL's folder and everything below it) and no `exclude` one.
 */
export class CrawlScope {
  readonly origin: string;
  readonly #included: (path: string) => boolean;
  readonly #excluded: (path: string) => boolean;

  constructor(start: URL, include: readonly string[], exclude: readonly string[]) {
    this.origin = start.origin;
    const folder = start.pathname.slice(0, start.pathname.lastIndexOf('/') + 1);
    const patterns = include.length > 0 ? include.map(rooted) : [folder === '/' ? '/**' : `${folder}**`];
    this.#included = picomatch(patterns, { dot: true });
    this.#excluded = exclude.length > 0 ? picomatch(exclude.map(rooted), { dot: true }) : () => false;
  }

  /** Whether `url` is a page of the crawl (its origin and patterns). */
  contains(url: URL): boolean {
    if (url.origin !== this.origin) return false;
    const path = decodeURIComponentSafely(url.pathname);
    return this.#included(path) && !this.#excluded(path);
  }

  /** Whether a link to `url` is worth following: in scope, and not a file no index could be made of. */
  follows(url: URL): boolean {
    return this.contains(url) && !NOT_A_DOCUMENT.test(url.pathname);
  }
}

function decodeURIComponentSafely(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
