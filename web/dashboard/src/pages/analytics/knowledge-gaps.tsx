import { Link } from 'wouter';
import { DateCell } from '../../components/date-time';
import { QaEntryDialog } from '../../components/qa-entry-dialog';
import type { KnowledgeGap } from '../../queries/analytics';
import type { Datastore } from '../../queries/datastores';

/**
 * Where the answer to a gap belongs: a Q&A entry ("Answer this"), the agent's (first) datastore's text form, or the
 * agent, to give it one.
 */
function AddDocument({ gap, datastores }: { gap: KnowledgeGap; datastores: ReadonlyMap<string, Datastore> }) {
  const { agent } = gap;
  if (agent === null) return <span className="muted small">Agent deleted</span>;
  const datastoreId = agent.datastoreIds[0];
  if (datastoreId === undefined) {
    return (
      <Link href={`/agents/${encodeURIComponent(agent.id)}`} className="button button-small">
        Give {agent.name} a datastore
      </Link>
    );
  }
  const name = datastores.get(datastoreId)?.name;
  // Straight to the datastore's text form, the question filled in: what is left is writing the answer.
  const href = `/datastores/${encodeURIComponent(datastoreId)}?${new URLSearchParams({ answer: gap.question })}`;
  const targets = agent.datastoreIds.map((id) => ({ id, name: datastores.get(id)?.name ?? id }));
  return (
    <>
      <QaEntryDialog
        title="Answer this question"
        description={`Saved as a Q&A entry, your answer is what ${agent.name} says from now on to this question and those worded closely.`}
        draft={{ question: gap.question, answer: '' }}
        destination={{ datastores: targets }}
        trigger={
          <button type="button" className="button button-small button-primary">
            Answer this
          </button>
        }
      />
      <Link href={href} className="button button-small">
        Write the answer{name === undefined ? '' : ` in ${name}`}
      </Link>
    </>
  );
}

/** The questions the agents could not answer, the most asked first, each with where to add its answer. */
export function KnowledgeGaps({
  gaps,
  total,
  datastores,
}: {
  gaps: readonly KnowledgeGap[];
  total: number;
  datastores: ReadonlyMap<string, Datastore>;
}) {
  if (gaps.length === 0) {
    return <p className="muted">Every question in this range was answered from the datastores.</p>;
  }
  return (
    <>
      <div className="table-wrap">
        <table className="table table-stack">
          <caption className="visually-hidden">Questions the agents could not answer</caption>
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Asked</th>
              <th scope="col">Last asked</th>
              <th scope="col">Agent</th>
              <th scope="col">
                <span className="visually-hidden">Answer it</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {gaps.map((gap) => (
              <tr key={`${gap.agent?.id ?? ''}\n${gap.question}\n${gap.conversationId}`}>
                <td data-label="Question">
                  <span className="gap-question">{gap.question}</span>
                </td>
                <td data-label="Asked" className="nowrap">
                  <span className="count">{gap.count === 1 ? 'once' : `${gap.count.toLocaleString()} times`}</span>
                </td>
                <DateCell label="Last asked" iso={gap.lastAskedAt} relative className="nowrap" />
                <td data-label="Agent">{gap.agent?.name ?? '—'}</td>
                <td className="row-actions">
                  <AddDocument gap={gap} datastores={datastores} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > gaps.length && (
        <p className="muted small">
          The {gaps.length} most asked of {total.toLocaleString()} questions.
        </p>
      )}
    </>
  );
}
