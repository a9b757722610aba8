import { useLocation } from 'wouter';
import { PageHeader } from '../../components/page-header';
import { useCreateAgent } from '../../queries/agents';
import { AgentForm } from './agent-form';

export function NewAgentPage() {
  const [, navigate] = useLocation();
  const create = useCreateAgent();
  return (
    <>
      <PageHeader title="New agent" back={{ href: '/agents', label: 'Agents' }} />
      <AgentForm
        submitLabel="Create agent"
        pending={create.isPending}
        error={create.error}
        onSubmit={(input) => create.mutate(input, { onSuccess: (agent) => navigate(`/agents/${encodeURIComponent(agent.id)}?tab=playground`) })}
      />
    </>
  );
}
