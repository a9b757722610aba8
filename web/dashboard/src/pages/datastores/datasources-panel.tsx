import { useSearchParams } from 'wouter';
import { EmptyState } from '../../components/empty-state';
import { QueryView } from '../../components/query-status';
import { isUnsettled, useDatasources } from '../../queries/datasources';
import { AddTextDialog, AddWebPageDialog, AddWebSiteDialog } from './add-content-dialogs';
import { QaEntryDialog } from '../../components/qa-entry-dialog';
import { DatasourcesTable } from './datasources-table';
import { UploadZone } from './upload-zone';
import { counted } from '../../components/counted';

/**
 * Adding documents (files, text, web pages, Q&A entries) and the table of those already in. `?answer=<question>` (the
 * analytics page's knowledge gaps link here) opens the text form on that question's answer.
 */
export function DatasourcesPanel({ datastoreId }: { datastoreId: string }) {
  const datasources = useDatasources(datastoreId);
  const [params, setParams] = useSearchParams();
  const question = params.get('answer')?.trim() || undefined;
  // Closed, the form is done with: reloading the page does not open it again.
  const forget = (open: boolean) => {
    if (open) return;
    setParams(
      (current) => {
        const kept = new URLSearchParams(current);
        kept.delete('answer');
        return kept;
      },
      { replace: true },
    );
  };
  const working = datasources.data?.filter(isUnsettled).length ?? 0;
  return (
    <div className="stack">
      <UploadZone datastoreId={datastoreId} />
      <div className="toolbar">
        <AddTextDialog
          key={question ?? ''}
          datastoreId={datastoreId}
          draft={question === undefined ? undefined : { question }}
          onOpenChange={forget}
        />
        <AddWebPageDialog datastoreId={datastoreId} />
        <AddWebSiteDialog datastoreId={datastoreId} />
        <QaEntryDialog
          title="Add a Q&A entry"
          description="A question and its answer: visitors asking that question, or one worded closely, get this answer word for word."
          draft={{ question: '', answer: '' }}
          destination={{ datastores: [{ id: datastoreId, name: '' }] }}
          trigger={
            <button type="button" className="button">
              Add Q&amp;A
            </button>
          }
        />
        <span className="toolbar-status muted small" role="status">
          {working > 0 ? `Processing ${counted(working, 'document')}…` : ''}
        </span>
      </div>
      <QueryView
        query={datasources}
        loading="Loading datasources…"
        empty={
          <EmptyState title="No documents yet">
            Upload a file above, or add text, a web page or a whole website. They are indexed in the background.
          </EmptyState>
        }
      >
        {(data) => <DatasourcesTable datastoreId={datastoreId} datasources={data} />}
      </QueryView>
    </div>
  );
}
