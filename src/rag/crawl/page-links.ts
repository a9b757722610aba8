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
  return {
    links,
    ...(canonical === undefined ? {} : { canonical }),
    noindex: directives.includes('noindex') || directives.includes('none'),
    nofollow: directives.includes('nofollow') || directives.includes('none'),
  };
}
