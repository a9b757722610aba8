import { parseHTML } from 'linkedom';

/** What a crawl reads of a page: where it links to and what it asks of robots. */
export interface PageLinks {
  /** Absolute http(s) URLs of its links (`a` and `area`), in page order, without `rel=nofollow` ones. */
  links: string[];
  /** The page's `<link rel="canonical">`, absolute. */
  canonical?: string;
  /** `<meta name="robots">` (or `name="parley"`) says noindex / none: not to be indexed. */
  noindex: boolean;
  /** It says nofollow / none: its links are not followed. */
  nofollow: boolean;
}

/** The few DOM members read here (linkedom's types describe the browser's DOM, outside this project's settings). */
interface Element {
  getAttribute(name: string): string | null;
}
interface LinkDocument {
  querySelector(selector: string): Element | null;
  querySelectorAll(selector: string): Iterable<Element>;
}

const absolute = (href: string | null, base: string): string | undefined => {
  if (href === null || href.trim() === '') return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

const words = (value: string | null | undefined): string[] => (value ?? '').toLowerCase().split(/[\s,]+/);

/** What robots directives (a meta tag's or a header's, lower case) ask: `none` is both noindex and nofollow. */
const robotsAsk = (directives: readonly string[]): Pick<PageLinks, 'noindex' | 'nofollow'> => ({
  noindex: directives.includes('noindex') || directives.includes('none'),
  nofollow: directives.includes('nofollow') || directives.includes('none'),
});

/** Directives of `X-Robots-Tag` with a value of their own (`unavailable_after: <date>`): not a robot's name before a colon. */
const VALUED_DIRECTIVES = new Set(['unavailable_after', 'max-snippet', 'max-image-preview', 'max-video-preview']);

/**
 * What an `X-Robots-Tag` header asks of Parley: its directives without a robot's name, and those after
 * `parley:` (`googlebot: noindex, nofollow` names another robot, up to the next name).
 */
export function robotsTagDirectives(header: string | null): Pick<PageLinks, 'noindex' | 'nofollow'> {
  const ours: string[] = [];
  let robot: string | undefined;
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const named = /^\s*([a-z0-9_-]+)\s*:\s*(.*)$/.exec(part);
    let directive = part.trim();
    if (named !== null && !VALUED_DIRECTIVES.has(named[1]!)) {
      robot = named[1];
      directive = named[2]!.trim();
    }
    if (robot === undefined || robot === 'parley') ours.push(directive.split(':')[0]!.trim());
  }
  return robotsAsk(ours);
}

/** The links, canonical URL and robots directives of an HTML page fetched from `pageUrl`. */
export function pageLinks(html: string, pageUrl: string): PageLinks {
  const { document } = parseHTML(html) as unknown as { document: LinkDocument };
  const base = absolute(document.querySelector('base[href]')?.getAttribute('href') ?? null, pageUrl) ?? pageUrl;
  const links: string[] = [];
  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    if (words(anchor.getAttribute('rel')).includes('nofollow')) continue;
    const url = absolute(anchor.getAttribute('href'), base);
    if (url !== undefined) links.push(url);
  }
  const canonical = absolute(document.querySelector('link[rel~="canonical"][href]')?.getAttribute('href') ?? null, base);
  const directives = [...document.querySelectorAll('meta[name="robots" i], meta[name="parley" i]')].flatMap((meta) =>
    words(meta.getAttribute('content')),
  );
  return { links, ...(canonical === undefined ? {} : { canonical }), ...robotsAsk(directives) };
}
