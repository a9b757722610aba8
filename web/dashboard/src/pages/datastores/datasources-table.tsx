import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { StatusBadge } from '../../components/status-badge';
import { useDeleteDatasource, useResyncDatasource, type Datasource } from '../../queries/datasources';
import { ChunkViewer } from './chunk-viewer';
import { RefreshSchedule, hasRefreshSchedule } from './refresh-schedule';
import { counted } from '../../components/counted';
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

const TYPE_LABELS = { file: 'File', text: 'Text', web_page: 'Web page', qa: 'Q&A' } as const;

function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A datastore's documents with their live status; each can be viewed, re-synced or deleted, a Q&A entry edited. */
export function DatasourcesTable({ datastoreId, datasources }: { datastoreId: string; datasources: readonly Datasource[] }) {
  const resync = useResyncDatasource(datastoreId);
  const remove = useDeleteDatasource(datastoreId);
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
          {datasources.map((datasource) => (
            <tr key={datasource.id}>
              <td data-label="Name">
                <ChunkViewer datasource={datasource} />
                <div className="muted small">
                  {TYPE_LABELS[datasource.type]}
                  {datasource.config.source_url !== undefined && ` · ${datasource.config.source_url}`}
                  {datasource.totalPages !== null && ` · ${counted(datasource.totalPages, 'page')}`}
                </div>
                {hasRefreshSchedule(datasource) && <RefreshSchedule datastoreId={datastoreId} datasource={datasource} />}
              </td>
              <td data-label="Status">
                <StatusBadge datasource={datasource} />
                {datasource.error !== null && <div className="row-error">{datasource.error}</div>}
              </td>
              <td data-label="Chunks" className="nowrap">
                {datasource.nbChunks.toLocaleString()}
              </td>
              <td data-label="Size" className="nowrap">
                {formatSize(datasource.size)}
              </td>
              <td data-label="Updated" className="nowrap">
                <DateTime iso={datasource.updatedAt} relative />
              </td>
              <td className="row-actions">
                {datasource.type === 'qa' && <EditQaEntry datasource={datasource} />}
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => resync.mutate(datasource.id)}
                  disabled={resync.isPending && resync.variables === datasource.id}
                  aria-label={`Resync ${datasource.name}`}
                >
                  Resync
                </button>
                <ConfirmDialog
                  trigger={
                    <button type="button" className="button button-small button-danger-quiet" aria-label={`Delete ${datasource.name}`}>
                      Delete
                    </button>
                  }
                  title={`Delete “${datasource.name}”?`}
                  description="The document and its chunks leave the datastore; agents no longer find them."
                  confirmLabel="Delete datasource"
                  onConfirm={() => remove.mutateAsync(datasource.id)}
                />
              </td>
            </tr>
          ))}
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
