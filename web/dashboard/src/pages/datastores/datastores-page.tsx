import { useLocation } from 'wouter';
import { EmptyState } from '../../components/empty-state';
import { ModalDialog } from '../../components/modal-dialog';
import { PageHeader } from '../../components/page-header';
import { QueryView } from '../../components/query-status';
import { ResourceCard } from '../../components/resource-card';
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
      <QueryView
        query={datastores}
        loading="Loading datastores…"
        empty={
          <EmptyState title="No datastores yet" action={<NewDatastoreButton />}>
            Create one and upload a file: PDF, Word, PowerPoint, Excel, CSV, text, Markdown, HTML or JSON.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="card-list">
            {data.map((datastore) => {
              const sources = datasources.get(datastore.id);
              return (
                <ResourceCard
                  key={datastore.id}
                  href={`/datastores/${encodeURIComponent(datastore.id)}`}
                  name={datastore.name}
                  description={datastore.description}
                  visibility={datastore.visibility}
                  facts={[
                    { term: 'Documents', value: sources === undefined ? '…' : sources.length.toLocaleString() },
                    {
                      term: 'Chunks',
                      value: sources === undefined ? '…' : sources.reduce((sum, source) => sum + source.nbChunks, 0).toLocaleString(),
                    },
                  ]}
                  updatedAt={datastore.updatedAt}
                />
              );
            })}
          </ul>
        )}
      </QueryView>
    </>
  );
}
