import { DateTime } from '../../components/date-time';
import { counted } from '../../components/counted';
import type { Datasource } from '../../queries/datasources';

type SiteCrawl = NonNullable<Datasource['config']['crawl']>;

const MODE_LABELS = { sitemap: 'from its sitemap', links: 'by its links' } as const;

/** The counts of a crawl, in words, leaving out the zeros that say nothing. */
function crawlCounts(crawl: SiteCrawl): string {
  const parts = [
    counted(crawl.found, 'page') + ' found',
    `${crawl.fetched.toLocaleString()} fetched`,
    crawl.changed > 0 ? `${crawl.changed.toLocaleString()} new or changed` : undefined,
    crawl.unchanged > 0 ? `${crawl.unchanged.toLocaleString()} unchanged` : undefined,
    crawl.failed > 0 ? `${crawl.failed.toLocaleString()} failed` : undefined,
    crawl.removed > 0 ? `${crawl.removed.toLocaleString()} removed` : undefined,
    crawl.skipped > 0 ? `${crawl.skipped.toLocaleString()} skipped` : undefined,
    crawl.capped > 0 ? `${crawl.capped.toLocaleString()} over the page limit` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(' · ');
}

/** What a website's last (or current) crawl found and did, with the pages it could not keep and why. */
export function SiteCrawlSummary({ site }: { site: Datasource }) {
  const crawl = site.config.crawl;
  if (crawl === undefined) return <p className="site-crawl muted small">Not crawled yet.</p>;
  const running = crawl.finishedAt === undefined;
  return (
    <div className="site-crawl small" role="status" aria-label={`Crawl of ${site.name}`}>
      <p className={running ? '' : 'muted'}>
        {running ? 'Crawling' : 'Crawled'} {crawl.mode !== undefined && MODE_LABELS[crawl.mode]}{' '}
        {running ? (
          <>
            since <DateTime iso={crawl.startedAt} relative />
          </>
        ) : (
          <DateTime iso={crawl.finishedAt!} relative />
        )}
        : {crawlCounts(crawl)}
      </p>
      {crawl.problems.length > 0 && (
        <details className="site-crawl-problems">
          <summary>{counted(crawl.problems.length, 'page')} not kept</summary>
          <ul>
            {crawl.problems.map((problem) => (
              <li key={`${problem.outcome} ${problem.url}`} className="break-anywhere">
                {problem.url}: {problem.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
