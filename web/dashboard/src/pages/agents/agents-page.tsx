import { Link } from 'wouter';
import { DateTime } from '../../components/date-time';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useAgents } from '../../queries/agents';

const newAgent = (
  <Link href="/agents/new" className="button button-primary">
    New agent
  </Link>
);

export function AgentsPage() {
  const agents = useAgents();
  return (
    <>
      <PageHeader title="Agents" description="Assistants that answer from your datastores." actions={agents.data?.length ? newAgent : undefined} />
      {agents.isPending ? (
        <LoadingState label="Loading agents…" />
      ) : agents.isError ? (
        <ErrorState error={agents.error} retry={() => void agents.refetch()} />
      ) : agents.data.length === 0 ? (
        <EmptyState title="No agents yet" action={newAgent}>
          Create an agent, attach a datastore to it, then try it in its playground.
        </EmptyState>
      ) : (
        <ul className="card-list">
          {agents.data.map((agent) => (
            <li key={agent.id} className="card">
              <h2 className="card-title">
                <Link href={`/agents/${encodeURIComponent(agent.id)}`}>{agent.name}</Link>
              </h2>
              {agent.description !== '' && <p className="card-text">{agent.description}</p>}
              <dl className="card-facts">
                <div>
                  <dt>Model</dt>
                  <dd className="mono">{agent.modelName}</dd>
                </div>
                <div>
                  <dt>Visibility</dt>
                  <dd>{agent.visibility === 'public' ? 'Public' : 'Private'}</dd>
                </div>
                <div>
                  <dt>Datastores</dt>
                  <dd>{agent.tools.length}</dd>
                </div>
                <div>
                  <dt>Changed</dt>
                  <dd>
                    <DateTime iso={agent.updatedAt} relative />
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
