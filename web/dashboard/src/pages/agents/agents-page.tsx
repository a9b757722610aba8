import { Link } from 'wouter';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { QueryView } from '../../components/query-status';
import { ResourceCard } from '../../components/resource-card';
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
      <QueryView
        query={agents}
        loading="Loading agents…"
        empty={
          <EmptyState title="No agents yet" action={newAgent}>
            Create an agent, attach a datastore to it, then try it in its playground.
          </EmptyState>
        }
      >
        {(data) => (
          <ul className="card-list">
            {data.map((agent) => (
              <ResourceCard
                key={agent.id}
                href={`/agents/${encodeURIComponent(agent.id)}`}
                name={agent.name}
                description={agent.description}
                visibility={agent.visibility}
                facts={[
                  { term: 'Model', value: agent.modelName, mono: true },
                  { term: 'Datastores', value: agent.tools.length },
                ]}
                updatedAt={agent.updatedAt}
              />
            ))}
          </ul>
        )}
      </QueryView>
    </>
  );
}
