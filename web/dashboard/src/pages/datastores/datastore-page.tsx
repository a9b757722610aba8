import * as Tabs from '@radix-ui/react-tabs';
import { useLocation, useParams, useSearchParams } from 'wouter';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { SuccessNotice } from '../../components/success-notice';
import { submitsTo } from '../../components/submits-to';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useDeleteDatastore, useDatastore, useUpdateDatastore, type Datastore } from '../../queries/datastores';
import { DatasourcesPanel } from './datasources-panel';
import { DatastoreForm } from './datastore-form';
import { SearchTester } from './search-tester';

const TABS = { datasources: 'Datasources', search: 'Search tester', settings: 'Settings' } as const;
type Tab = keyof typeof TABS;

/** One datastore: its datasources, a search tester (`?tab=search&q=…`) and its settings. */
export function DatastorePage() {
  const { id } = useParams<{ id: string }>();
  const datastore = useDatastore(id);
  if (datastore.isPending) return <LoadingState label="Loading the datastore…" />;
  if (datastore.isError) return <ErrorState error={datastore.error} retry={() => void datastore.refetch()} />;
  return <DatastoreView datastore={datastore.data} />;
}

function DatastoreView({ datastore }: { datastore: Datastore }) {
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const remove = useDeleteDatastore();
  const requested = params.get('tab');
  const tab: Tab = requested !== null && requested in TABS ? (requested as Tab) : 'datasources';

  return (
    <>
      <PageHeader
        title={datastore.name}
        windowTitle={`${datastore.name} — ${TABS[tab]}`}
        back={{ href: '/datastores', label: 'Datastores' }}
        description={datastore.description === '' ? undefined : datastore.description}
        actions={
          <ConfirmDialog
            trigger={
              <button type="button" className="button button-danger-quiet">
                Delete datastore
              </button>
            }
            title={`Delete the datastore “${datastore.name}”?`}
            description="Its documents and their chunks go for good, and agents using it lose it."
            confirmLabel="Delete datastore"
            onConfirm={() => remove.mutateAsync(datastore.id).then(() => navigate('/datastores', { replace: true }))}
          />
        }
      />
      <Tabs.Root
        value={tab}
        onValueChange={(next) =>
          setParams((current) => {
            const kept = new URLSearchParams(current);
            if (next === 'datasources') kept.delete('tab');
            else kept.set('tab', next);
            return kept;
          })
        }
        activationMode="manual"
      >
        <Tabs.List className="tabs" aria-label="Datastore">
          {Object.entries(TABS).map(([value, label]) => (
            <Tabs.Trigger key={value} value={value} className="tab">
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="datasources" className="tab-panel">
          <DatasourcesPanel datastoreId={datastore.id} />
        </Tabs.Content>
        <Tabs.Content value="search" className="tab-panel">
          <SearchTester datastoreId={datastore.id} />
        </Tabs.Content>
        <Tabs.Content value="settings" className="tab-panel">
          <DatastoreSettings datastore={datastore} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

function DatastoreSettings({ datastore }: { datastore: Datastore }) {
  const update = useUpdateDatastore(datastore.id);
  return (
    <>
      <SuccessNotice shown={update.isSuccess} />
      <DatastoreForm datastore={datastore} submitLabel="Save changes" {...submitsTo(update)} />
    </>
  );
}
