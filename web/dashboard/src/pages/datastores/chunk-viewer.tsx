import { ModalDialog } from '../../components/modal-dialog';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useChunks, type Datasource } from '../../queries/datasources';
import { counted } from '../../components/counted';

/** The datasource's name as a button opening its chunks, as indexed. */
export function ChunkViewer({ datasource }: { datasource: Datasource }) {
  return (
    <ModalDialog
      title={`Chunks of ${datasource.name}`}
      description={`${counted(datasource.nbChunks, 'chunk')}, in document order: the passages searches and agents find.`}
      wide
      trigger={
        <button type="button" className="link-button" aria-label={`${datasource.name}: view chunks`}>
          {datasource.name}
        </button>
      }
    >
      {() => <ChunkList id={datasource.id} />}
    </ModalDialog>
  );
}

function ChunkList({ id }: { id: string }) {
  const chunks = useChunks(id);
  if (chunks.isPending) return <LoadingState label="Loading chunks…" />;
  if (chunks.isError) return <ErrorState error={chunks.error} retry={() => void chunks.refetch()} />;
  const all = chunks.data.pages.flat();
  if (all.length === 0) return <p className="muted">No chunks: the datasource is not indexed yet, or had no text.</p>;
  return (
    <>
      <ol className="chunk-list">
        {all.map((chunk) => (
          <li key={chunk.id} className="chunk">
            <div className="chunk-head">
              <span>#{chunk.ordinal + 1}</span>
              {chunk.page_number !== null && <span>page {chunk.page_number}</span>}
              <span>{chunk.tokens} tokens</span>
            </div>
            <p className="passage">{chunk.text}</p>
          </li>
        ))}
      </ol>
      {chunks.hasNextPage && (
        <button type="button" className="button" onClick={() => void chunks.fetchNextPage()} disabled={chunks.isFetchingNextPage}>
          {chunks.isFetchingNextPage ? 'Loading…' : 'Show more chunks'}
        </button>
      )}
    </>
  );
}
