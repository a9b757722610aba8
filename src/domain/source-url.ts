import { BlockedUrlError, type OutboundPolicy } from '../net/address-policy.js';
import { invalid } from '../errors.js';

/**
 * Refuses a page or site address Parley will not fetch: not a URL, not http(s), or a destination the
 * outbound policy never allows. Early and literal, for quick feedback; every fetch checks each resolved
 * address again, redirects included.
 */
export function checkSourceUrl(raw: string, outbound: OutboundPolicy): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('config.source_url is not a URL', [{ field: 'url', message: 'must be an http(s) URL' }]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('Only http and https pages can be added', [{ field: 'url', message: 'must be an http(s) URL' }]);
  }
  try {
    outbound.destinationOf(url);
  } catch (error) {
    if (!(error instanceof BlockedUrlError)) throw error;
    throw invalid(`Parley does not fetch this page: ${error.message}`, [{ field: 'url', message: error.message }]);
  }
}
