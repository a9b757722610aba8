import { useId } from 'react';
import { useSearchParams } from 'wouter';
import { readForm } from '../../components/form-data';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useDatastoreSearch, type SearchMode } from '../../queries/datastores';

const MODES: ReadonlyArray<{ mode: SearchMode; label: string; about: string }> = [
  { mode: 'hybrid', label: 'Hybrid', about: 'Meaning and keywords fused: what agents use.' },
  { mode: 'vector', label: 'Vector', about: 'Meaning only (cosine similarity).' },
  { mode: 'keyword', label: 'Keyword', about: 'Words only (relevance scaled to the best hit).' },
];

const TOP_K_CHOICES = [3, 5, 10, 20];

/** The search tester's state lives in the URL: `?tab=search&q=…&topK=5&modes=hybrid,keyword`. */
function useSearchState() {
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const topK = TOP_K_CHOICES.includes(Number(params.get('topK'))) ? Number(params.get('topK')) : 5;
  const listed = params.get('modes')?.split(',') ?? [];
  const modes = MODES.map(({ mode }) => mode).filter((mode) => listed.length === 0 || listed.includes(mode));
  const run = (next: { query: string; topK: number; modes: SearchMode[] }) =>
    setParams((current) => {
      const kept = new URLSearchParams(current);
      kept.set('tab', 'search');
      kept.set('q', next.query);
      kept.set('topK', String(next.topK));
      if (next.modes.length === MODES.length || next.modes.length === 0) kept.delete('modes');
      else kept.set('modes', next.modes.join(','));
      return kept;
    });
  return { query, topK, modes, run };
}

/** Runs one query in hybrid, vector and keyword modes side by side, to see what each engine finds. */
export function SearchTester({ datastoreId }: { datastoreId: string }) {
  const id = useId();
  const { query, topK, modes, run } = useSearchState();
  return (
    <div className="stack">
      <form
        className="search-form"
        role="search"
        aria-label="Search tester"
        onSubmit={(event) => {
          const form = readForm(event);
          run({ query: form.text('q').trim(), topK: Number(form.text('topK')), modes: form.all('modes') as SearchMode[] });
        }}
        key={`${query}|${topK}|${modes.join()}`}
      >
        <div className="search-row">
          <div className="field search-query">
            <label htmlFor={`${id}-q`}>Query</label>
            <input id={`${id}-q`} className="input" type="search" name="q" defaultValue={query} placeholder="What would a visitor ask?" />
          </div>
          <div className="field">
            <label htmlFor={`${id}-topk`}>Hits</label>
            <select id={`${id}-topk`} className="input" name="topK" defaultValue={topK}>
              {TOP_K_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button button-primary">
            Search
          </button>
        </div>
        <fieldset className="fieldset fieldset-inline">
          <legend>Modes</legend>
          {MODES.map(({ mode, label }) => (
            <label key={mode} className="check">
              <input type="checkbox" name="modes" value={mode} defaultChecked={modes.includes(mode)} />
              {label}
            </label>
          ))}
        </fieldset>
      </form>
      {query === '' ? (
        <p className="muted">Type a question and search: each mode’s hits appear side by side, with their scores.</p>
      ) : (
        <div className="search-columns">
          {MODES.filter(({ mode }) => modes.includes(mode)).map(({ mode, label, about }) => (
            <SearchColumn key={mode} datastoreId={datastoreId} mode={mode} label={label} about={about} query={query} topK={topK} />
          ))}
        </div>
      )}
    </div>
  );
}

interface SearchColumnProps {
  datastoreId: string;
  mode: SearchMode;
  label: string;
  about: string;
  query: string;
  topK: number;
}

function SearchColumn({ datastoreId, mode, label, about, query, topK }: SearchColumnProps) {
  const id = useId();
  const search = useDatastoreSearch(datastoreId, mode, query, topK);
  return (
    <section className="search-column" aria-labelledby={id}>
      <h2 id={id} className="search-column-title">
        {label}
      </h2>
      <p className="muted small">{about}</p>
      {search.isPending ? (
        <LoadingState label={`Searching (${label.toLowerCase()})…`} />
      ) : search.isError ? (
        <ErrorState error={search.error} retry={() => void search.refetch()} />
      ) : search.data.length === 0 ? (
        <p className="muted">No hits.</p>
      ) : (
        <ol className="hit-list" aria-label={`${label} hits`}>
          {search.data.map((hit) => (
            <li key={hit.chunk_id} className="hit">
              <div className="hit-head">
                <span className="score">{hit.score.toFixed(3)}</span>
                <span className="source-name">{hit.datasource_name}</span>
                {hit.page_number !== null && <span className="muted">page {hit.page_number}</span>}
              </div>
              <p className="passage">{hit.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
