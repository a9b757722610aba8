import type { SiteCrawlBody, SiteProblemBody } from '../../contract/datasources.js';

/** What a site's crawl found and did, as its config keeps it (`crawl`). */
export type SiteProgress = SiteCrawlBody;
export type SiteProblem = SiteProblemBody;

/** How a site is crawled, read from its config (set when it was added). */
export interface SiteSettings {
  startUrl: string;
  include: string[];
  exclude: string[];
  maxPages: number;
  maxDepth: number;
}

export const DEFAULT_MAX_PAGES = 200;
export const DEFAULT_MAX_DEPTH = 10;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : []);
const count = (value: unknown, fallback: number): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback);

export function siteSettingsOf(config: Record<string, unknown>): SiteSettings {
  return {
    startUrl: String(config.source_url),
    include: strings(config.include),
    exclude: strings(config.exclude),
    maxPages: Math.max(1, count(config.maxPages, DEFAULT_MAX_PAGES)),
    maxDepth: count(config.maxDepth, DEFAULT_MAX_DEPTH),
  };
}
