import { Fragment, useState, type ReactNode } from 'react';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { DateCell } from '../../components/date-time';
import { StatusBadge } from '../../components/status-badge';
import { useDeleteDatasource, useResyncDatasource, type Datasource } from '../../queries/datasources';
import { ChunkViewer } from './chunk-viewer';
import { RefreshSchedule, hasRefreshSchedule } from './refresh-schedule';
import { counted } from '../../components/counted';
import { SiteCrawlSummary } from './site-crawl-summary';
import { QaEntryDialog } from '../../components/qa-entry-dialog';

/** A Q&A entry's question, answer and other wordings, edited in place. */
function EditQaEntry({ datasource }: { datasource: Datasource }) {
  const { question = '', answer = '', questions = [] } = datasource.config;
  return (
    <QaEntryDialog
      title="Edit Q&A entry"
      description="Saved, the entry is indexed again; its answer is said word for word to its question."
      draft={{ question, answer, questions }}
      destination={{ entryId: datasource.id }}
      trigger={
        <button type="button" className="button button-small" aria-label={`Edit ${datasource.name}`}>
          Edit
        </button>
      }
    />
  );
}

const TYPE_LABELS = { file: 'File', text: 'Text', web_page: 'Web page', web_site: 'Website', qa: 'Q&A' } as const;

function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A site's pages by the site's id; the other datasources stand on their own (a site among them). */
function groupPages(datasources: readonly Datasource[]) {
  const pagesOf = new Map<string, Datasource[]>();
  const own: Datasource[] = [];
  for (const datasource of datasources) {
    const { groupId } = datasource;
    if (groupId === '' || groupId === datasource.id || !datasources.some((each) => each.id === groupId)) own.push(datasource);
    else pagesOf.set(groupId, [...(pagesOf.get(groupId) ?? []), datasource]);
  }
  return { own, pagesOf };
}

/** A datastore's documents with their live status; each can be viewed, re-synced or deleted, a Q&A entry edited. A website's pages show under it. */
export function DatasourcesTable({ datastoreId, datasources }: { datastoreId: string; datasources: readonly Datasource[] }) {
  const resync = useResyncDatasource(datastoreId);
  const { own, pagesOf } = groupPages(datasources);
  const [openSites, setOpenSites] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpenSites((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption className="visually-hidden">Datasources</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Chunks</th>
            <th scope="col">Size</th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {own.map((datasource) => {
            const pages = pagesOf.get(datasource.id) ?? [];
            const open = openSites.has(datasource.id);
            return (
              <Fragment key={datasource.id}>
                <DatasourceRow datastoreId={datastoreId} datasource={datasource} pages={pages} resync={resync}>
                  {datasource.type === 'web_site' && (
                    <>
                      <SiteCrawlSummary site={datasource} />
                      {pages.length > 0 && (
                        <button type="button" className="link-button small" aria-expanded={open} onClick={() => toggle(datasource.id)}>
                          {open ? 'Hide' : 'Show'} its {counted(pages.length, 'page')}
                        </button>
                      )}
                    </>
                  )}
                </DatasourceRow>
                {open && pages.map((page) => <DatasourceRow key={page.id} datastoreId={datastoreId} datasource={page} resync={resync} nested />)}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {resync.isError && (
        <p className="field-error" role="alert">
          Resync failed: {resync.error.message}
        </p>
      )}
    </div>
  );
}

/** One datasource's row; a site's counts its pages' chunks and bytes, a page of a site is indented under it. */
function DatasourceRow({
  datastoreId,
  datasource,
  pages = [],
  resync,
  nested = false,
  children,
}: {
  datastoreId: string;
  datasource: Datasource;
  pages?: readonly Datasource[];
  resync: ReturnType<typeof useResyncDatasource>;
  nested?: boolean;
  children?: ReactNode;
}) {
  const remove = useDeleteDatasource(datastoreId);
  const isSite = datasource.type === 'web_site';
  const chunks = isSite ? pages.reduce((sum, page) => sum + page.nbChunks, 0) : datasource.nbChunks;
  const size = isSite ? pages.reduce((sum, page) => sum + (page.size ?? 0), 0) : datasource.size;
  return (
    <tr className={nested ? 'row-nested' : undefined}>
      <td data-label="Name">
        {isSite ? <span className="datasource-name">{datasource.name}</span> : <ChunkViewer datasource={datasource} />}
        <div className="muted small break-anywhere">
          {nested ? 'Page of the website' : TYPE_LABELS[datasource.type]}
          {datasource.config.source_url !== undefined && datasource.config.source_url !== datasource.name && ` · ${datasource.config.source_url}`}
          {datasource.totalPages !== null && ` · ${counted(datasource.totalPages, 'page')}`}
        </div>
        {hasRefreshSchedule(datasource) && <RefreshSchedule datastoreId={datastoreId} datasource={datasource} />}
        {children}
      </td>
      <td data-label="Status">
        <StatusBadge datasource={datasource} />
        {datasource.error !== null && <div className="row-error">{datasource.error}</div>}
      </td>
      <td data-label="Chunks" className="nowrap">
        {chunks.toLocaleString()}
      </td>
      <td data-label="Size" className="nowrap">
        {formatSize(isSite && pages.length === 0 ? null : size)}
      </td>
      <DateCell label="Updated" iso={datasource.updatedAt} relative className="nowrap" />
      <td className="row-actions">
        {datasource.type === 'qa' && <EditQaEntry datasource={datasource} />}
        <button
          type="button"
          className="button button-small"
          onClick={() => resync.mutate(datasource.id)}
          disabled={resync.isPending && resync.variables === datasource.id}
          aria-label={isSite ? `Crawl again: ${datasource.name}` : `Resync ${datasource.name}`}
        >
          {isSite ? 'Crawl again' : 'Resync'}
        </button>
        <ConfirmDialog
          trigger={rowDangerButton('Delete', `Delete ${datasource.name}`)}
          title={`Delete “${datasource.name}”?`}
          description={
            isSite
              ? `The website and its ${counted(pages.length, 'page')} leave the datastore; agents no longer find them.`
              : 'The document and its chunks leave the datastore; agents no longer find them.'
          }
          confirmLabel="Delete datasource"
          onConfirm={() => remove.mutateAsync(datasource.id)}
        />
      </td>
    </tr>
  );
}
