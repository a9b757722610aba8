import { Link, useLocation } from 'wouter';
import { DateTime } from '../../components/date-time';
import { EmptyState } from '../../components/empty-state';
import { ModalDialog } from '../../components/modal-dialog';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useCreateDatastore, useDatasourcesOf, useDatastores } from '../../queries/datastores';
import { DatastoreForm } from './datastore-form';

function NewDatastoreButton() {
  const create = useCreateDatastore();
  const [, navigate] = useLocation();
  return (
    <ModalDialog
      title="New datastore"
      description="A datastore holds documents your agents search. Upload files to it next."
      trigger={
        <button type="button" className="button button-primary">
          New datastore
        </button>
      }
    >
      {() => (
        <DatastoreForm
          submitLabel="Create datastore"
          pending={create.isPending}
          error={create.error}
          onSubmit={(input) => create.mutate(input, { onSuccess: (datastore) => navigate(`/datastores/${encodeURIComponent(datastore.id)}`) })}
        />
      )}
    </ModalDialog>
  );
}

export function DatastoresPage() {
  const datastores = useDatastores();
  const datasources = useDatasourcesOf(datastores.data?.map((datastore) => datastore.id) ?? []);
  return (
    <>
      <PageHeader
        title="Datastores"
        description="Collections of documents, searched by your agents."
        actions={datastores.data?.length ? <NewDatastoreButton /> : undefined}
      />
      {datastores.isPending ? (
        <LoadingState label="Loading datastores…" />
      ) : datastores.isError ? (
        <ErrorState error={datastores.error} retry={() => void datastores.refetch()} />
      ) : datastores.data.length === 0 ? (
        <EmptyState title="No datastores yet" action={<NewDatastoreButton />}>
          Create one and upload a file: PDF, Word, PowerPoint, Excel, CSV, text, Markdown, HTML or JSON.
        </EmptyState>
      ) : (
        <ul className="card-list">
          {datastores.data.map((datastore) => {
            const sources = datasources.get(datastore.id);
            return (
              <li key={datastore.id} className="card">
                <h2 className="card-title">
                  <Link href={`/datastores/${encodeURIComponent(datastore.id)}`}>{datastore.name}</Link>
                </h2>
                {datastore.description !== '' && <p className="card-text">{datastore.description}</p>}
                <dl className="card-facts">
                  <div>
                    <dt>Documents</dt>
                    <dd>{sources === undefined ? '…' : sources.length.toLocaleString()}</dd>
                  </div>
                  <div>
                    <dt>Chunks</dt>
                    <dd>{sources === undefined ? '…' : sources.reduce((sum, source) => sum + source.nbChunks, 0).toLocaleString()}</dd>
                  </div>
                  <div>
                    <dt>Visibility</dt>
                    <dd>{datastore.visibility === 'public' ? 'Public' : 'Private'}</dd>
                  </div>
                  <div>
                    <dt>Changed</dt>
                    <dd>
                      <DateTime iso={datastore.updatedAt} relative />
                    </dd>
                  </div>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
