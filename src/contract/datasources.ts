import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';
import { Id } from './shared-schemas.js';

/** Datasources and their chunks as the API answers them. */

/** How often a datasource fetched from a URL is re-synced (a conditional fetch: unchanged, nothing is re-embedded). */
export const RefreshInterval = StringEnum(['off', 'daily', 'weekly'], {
  description: 'How often the URL is fetched again; unchanged content is neither parsed nor embedded again. Absent: off',
});

/** What the last fetch of a URL datasource found (config.lastCheck). */
export interface LastCheckBody {
  at: string;
  outcome: 'changed' | 'unchanged' | 'failed';
  reason?: string;
}

/** A page of a site the last crawl could not keep, and why (config.crawl.problems). */
export interface SiteProblemBody {
  url: string;
  outcome: 'failed' | 'skipped' | 'gone';
  reason: string;
}

/** What a site's crawl found and did (config.crawl of a web_site datasource), counted as it goes. */
export interface SiteCrawlBody {
  startedAt: string;
  finishedAt?: string;
  /** How pages were found: the site's sitemaps, or the links from its start page. */
  mode?: 'sitemap' | 'links';
  /** Pages of the site found (fetched or not). */
  found: number;
  /** Downloaded in full (a 304 is not). */
  fetched: number;
  /** New or changed pages, indexed again. */
  changed: number;
  /** Pages whose index stayed as it was (304, the same bytes, a sitemap lastmod not newer than the last check). */
  unchanged: number;
  failed: number;
  /** Pages that left the site (404, 410, no longer linked or listed, noindex, a copy of another). */
  removed: number;
  /** Pages not kept: noindex, copies of another (canonical), redirected off the site, unreadable. */
  skipped: number;
  /** Pages found past maxPages, not fetched. */
  capped: number;
  /** The first 50 problems. */
  problems: SiteProblemBody[];
}

export const Datasource = Type.Object({
  id: Type.String(),
  type: StringEnum(['file', 'text', 'web_page', 'web_site', 'qa']),
  name: Type.String(),
  status: StringEnum(['unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached']),
  datastoreId: Type.String(),
  // groupId and lastSynch are strings in the older public OpenAPI document, which clients generate code from.
  groupId: Type.String({ description: 'Empty when the datasource belongs to no group' }),
  custom_id: Nullable(Type.String()),
  // The keys clients read, typed; the schema stays open, as a datasource's config is sent whole.
  config: Type.Unsafe<{
    source_url?: string;
    file_name?: string;
    kind?: string;
    question?: string;
    answer?: string;
    questions?: string[];
    sourceMessageId?: string;
    refreshInterval?: Static<typeof RefreshInterval>;
    nextRefreshAt?: string;
    sitemap?: string;
    include?: string[];
    exclude?: string[];
    maxPages?: number;
    maxDepth?: number;
    crawl?: SiteCrawlBody;
    lastCheck?: LastCheckBody;
    etag?: string | null;
    lastModified?: string | null;
    contentHash?: string | null;
    textHash?: string | null;
  }>(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'source_url (web pages and sites), file_name, kind; for sites (web_site) include, exclude, maxPages, maxDepth and crawl {found, fetched, changed, unchanged, failed, removed, skipped, capped, problems}, their pages carrying the site’s id as groupId; question, answer, questions, sourceMessageId (qa); for URL sources refreshInterval, nextRefreshAt, lastCheck {at, outcome: changed|unchanged|failed, reason}, and the etag, lastModified, contentHash and textHash of the indexed fetch',
      },
    ),
  ),
  error: Nullable(
    Type.String({
      description: 'Why processing failed (status error), is being retried, or why the last re-check failed (status synched: the index is kept)',
    }),
  ),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  nbChunks: Type.Integer(),
  textSize: Type.Integer({ description: 'Characters of text extracted' }),
  totalPages: Nullable(Type.Integer()),
  mimeType: Nullable(Type.String()),
  size: Nullable(Type.Integer({ description: 'Bytes of the stored file' })),
  createdAt: Timestamp('When the datasource was created'),
  updatedAt: Timestamp('Last change of status or progress'),
  lastSynch: Type.Optional(Timestamp('When the content was last indexed; absent until it is')),
  duplicateOf: Type.Optional(
    Type.String({
      description:
        'Only in the answer to an addition: the id of the datasource of the datastore that already held the same content ' +
        '(file or text: same bytes) or the same URL (web page, normalised). Equal to `id` when nothing was added ' +
        '(onDuplicate use_existing) or that datasource was replaced; also in the Parley-Duplicate-Of header',
    }),
  ),
});

export const Chunk = Type.Object({
  id: Type.String(),
  ordinal: Type.Integer(),
  text: Type.String(),
  source: Type.String(),
  page_number: Nullable(Type.Integer()),
  tokens: Type.Integer(),
  custom_id: Nullable(Type.String()),
});

export type DatasourceBody = Static<typeof Datasource>;
export type DatasourceStatus = DatasourceBody['status'];
export type ChunkBody = Static<typeof Chunk>;

/** What a datasource is created from, besides a file (multipart; see the routes): its own id for query filters. */
export const CustomId = Type.Optional(Type.String({ maxLength: 500, description: 'Your own id, usable as a query filter' }));

/** What to do when the datastore already holds what is being added (see OnDuplicate in src/domain/datasources.ts). */
export const OnDuplicate = Type.Optional(
  StringEnum(['use_existing', 'keep_both', 'replace', 'reject'], {
    description:
      'Default use_existing. When the datastore already holds the same content (same bytes, for a file or a text) or the same URL (a web page; ' +
      'compared without fragment, tracking parameters, parameter order or trailing slash): `use_existing` adds nothing and ' +
      'answers 200 with that datasource, marked by `duplicateOf` (clients of the hosted API keep reading a Datasource); ' +
      '`keep_both` adds it anyway; `replace` gives that datasource (else a file or text of the same name) the new content ' +
      'and indexes it again under the same id; `reject` answers 409 DUPLICATE_DATASOURCE with the datasource in `existing`',
  }),
);

/** `POST /datasources` with a text. */
export const TextDatasource = Type.Object({
  type: StringEnum(['text']),
  datastoreId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  text: Type.String({ minLength: 1 }),
  custom_id: CustomId,
  onDuplicate: OnDuplicate,
});

/** `POST /datasources` with a web page to fetch. */
export const WebPageDatasource = Type.Object({
  type: StringEnum(['web_page']),
  datastoreId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  config: Type.Object({ source_url: Type.String({ minLength: 1, maxLength: 4000 }), refreshInterval: Type.Optional(RefreshInterval) }),
  custom_id: CustomId,
  onDuplicate: OnDuplicate,
});

/** Pages one site crawl fetches at most. */
export const MAX_SITE_PAGES = 5000;

/** Path patterns of a site crawl (`/docs/**`, `/blog/*`). */
const PathPatterns = (description: string) => Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 50, description }));

/** `POST /datasources` with a website to crawl: each of its pages becomes a web_page datasource in the site's group. */
export const WebSiteDatasource = Type.Object({
  type: StringEnum(['web_site']),
  datastoreId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  config: Type.Object({
    source_url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description: 'A page of the site to start from, or its sitemap; one of source_url and sitemap is required',
      }),
    ),
    sitemap: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'The site’s sitemap (the hosted service’s name for a sitemap start)' }),
    ),
    include: PathPatterns('Path patterns of the pages to keep (default: the start URL’s folder and below: `/docs/**` for /docs/intro)'),
    exclude: PathPatterns('Path patterns of pages to leave out'),
    maxPages: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SITE_PAGES, description: 'Pages fetched at most (default 200)' })),
    maxDepth: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: 'Link steps from the start page, without a sitemap (default 10)' })),
    refreshInterval: Type.Optional(RefreshInterval),
  }),
  custom_id: CustomId,
  onDuplicate: OnDuplicate,
});

/** Limits of a Q&A entry (the domain checks them again, after trimming). */
const Question = Type.String({ minLength: 1, maxLength: 500 });
const Answer = Type.String({ minLength: 1, maxLength: 10_000 });
const OtherWordings = Type.Array(Question, { maxItems: 20, description: 'Other wordings of the question; they match as the question does' });

/** `POST /datasources` with a question and its answer; said word for word when a visitor asks that question. */
export const QaDatasource = Type.Object({
  type: StringEnum(['qa']),
  datastoreId: Id,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Defaults to the question' })),
  config: Type.Object({
    question: Question,
    answer: Answer,
    questions: Type.Optional(OtherWordings),
    sourceMessageId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'The agent answer this corrects (the inbox’s Improve)' }),
    ),
  }),
  custom_id: CustomId,
});

/**
 * `PATCH /datasources/{id}`: what can change after a datasource is made; what is left out stays. A Q&A
 * entry changed is indexed again.
 */
export const DatasourceChanges = Type.Object(
  {
    config: Type.Object(
      {
        refreshInterval: Type.Optional(RefreshInterval),
        question: Type.Optional(Question),
        answer: Type.Optional(Answer),
        questions: Type.Optional(OtherWordings),
      },
      {
        additionalProperties: false,
        minProperties: 1,
        description: 'refreshInterval (URL sources and sites); question, answer, questions (qa)',
      },
    ),
  },
  { additionalProperties: false },
);
export type DatasourceChangesBody = Static<typeof DatasourceChanges>;

/** A datasource made from a text or a web page, as the dashboard sends it (the datastore comes from the page). */
export type OnDuplicateChoice = NonNullable<Static<typeof OnDuplicate>>;

export type NewDatasourceBody =
  | Omit<Static<typeof TextDatasource>, 'datastoreId'>
  | Omit<Static<typeof WebPageDatasource>, 'datastoreId'>
  | Omit<Static<typeof WebSiteDatasource>, 'datastoreId'>;
export type QaDatasourceBody = Static<typeof QaDatasource>;
