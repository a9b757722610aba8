/** Query parameters that follow a visitor (campaigns, ad clicks), not the page: folded away. */
const TRACKING_PARAMETER = /^(utm_\w+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|_ga|_gl|yclid)$/i;

/**
 * The address a crawler fetches for a link: no fragment (the same document) and no tracking parameters,
 * the others as written (a server may tell them apart by order).
 */
export function withoutTracking(raw: string): string {
  const url = new URL(raw);
  url.hash = '';
  const kept = [...url.searchParams].filter(([name]) => !TRACKING_PARAMETER.test(name));
  if (kept.length !== [...url.searchParams].length) url.search = new URLSearchParams(kept).toString();
  return url.toString();
}

/**
 * The address as the same page is written however it was typed: scheme and host in lower case and the
 * default port dropped (by URL itself), no fragment, no tracking parameters, the others in name order,
 * and no trailing slash but the root's. Conservative on purpose: a URL taken for another is a page not
 * added, so scheme, host (`www.`) and path case still tell pages apart.
 */
export function normalisedUrl(raw: string): string {
  const url = new URL(withoutTracking(raw));
  const kept = [...url.searchParams];
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  url.search = new URLSearchParams(kept).toString();
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  return url.toString();
}
