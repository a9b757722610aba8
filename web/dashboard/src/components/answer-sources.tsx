import type { AnswerSource } from '../queries/agents';
import { counted } from './counted';

const pageOf = (source: AnswerSource) =>
  source.page_number === undefined
    ? null
    : source.total_pages === undefined
      ? `page ${source.page_number}`
      : `page ${source.page_number} of ${source.total_pages}`;

/**
 * Where an answer comes from: the passages it cites, numbered as its text cites them ([1] is the first), with
 * their page and score; shown open (the playground) or behind its summary (a conversation's thread).
 */
export function AnswerSources({ sources, defaultOpen = true }: { sources: readonly AnswerSource[]; defaultOpen?: boolean }) {
  if (sources.length === 0) return <p className="muted small">No sources: the answer cites no passage.</p>;
  return (
    <details className="sources" open={defaultOpen}>
      <summary>{counted(sources.length, 'source')}</summary>
      <ol className="source-list">
        {sources.map((source, index) => (
          <li key={source.chunk_id} className="source">
            <div className="source-head">
              <span className="source-number">[{index + 1}]</span>
              <span className="source-name">{source.datasource_name}</span>
              {pageOf(source) !== null && <span className="muted">{pageOf(source)}</span>}
              <span className="score" title="Relevance score">
                score {source.score.toFixed(3)}
              </span>
            </div>
            {source.source_url !== null && source.source_url !== '' && /^https?:\/\//.test(source.source_url) && (
              <a className="source-url" href={source.source_url} target="_blank" rel="noreferrer noopener">
                {source.source_url}
              </a>
            )}
            <p className="passage">{source.text}</p>
          </li>
        ))}
      </ol>
    </details>
  );
}
