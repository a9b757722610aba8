import * as Tabs from '@radix-ui/react-tabs';
import type { ComponentType } from 'react';
import { useLocation, useParams, useSearchParams } from 'wouter';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { SuccessNotice } from '../../components/success-notice';
import { submitsTo } from '../../components/submits-to';
import { ErrorState, LoadingState } from '../../components/query-status';
import { useAgent, useDeleteAgent, useUpdateAgent, type Agent } from '../../queries/agents';
import { AgentForm } from './agent-form';
import { ChannelsTab } from './channels-tab';
import { Playground } from './playground';
import { WidgetTab } from './widget-tab';

/** The agent's tabs, in order: the tab's name, the window's title while it is open, and what it shows. */
const TABS = {
  settings: { label: 'Settings', title: 'Agent settings', Panel: AgentSettings },
  playground: { label: 'Playground', title: 'Playground', Panel: Playground },
  widget: { label: 'Widget', title: 'Chat widget', Panel: WidgetTab },
  channels: { label: 'Channels', title: 'Channels', Panel: ChannelsTab },
} satisfies Record<string, { label: string; title: string; Panel: ComponentType<{ agent: Agent }> }>;
type Tab = keyof typeof TABS;
const TAB_NAMES = Object.keys(TABS) as Tab[];

/** One agent: its settings, its playground (`?tab=playground`), its chat widget (`?tab=widget`) and its channel connections (`?tab=channels`). */
export function AgentPage() {
  const { id } = useParams<{ id: string }>();
  const agent = useAgent(id);
  if (agent.isPending) return <LoadingState label="Loading the agent…" />;
  if (agent.isError) return <ErrorState error={agent.error} retry={() => void agent.refetch()} />;
  return <AgentView agent={agent.data} />;
}

function AgentView({ agent }: { agent: Agent }) {
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const remove = useDeleteAgent();
  const tab: Tab = TAB_NAMES.find((name) => name === params.get('tab')) ?? 'settings';

  return (
    <>
      <PageHeader
        title={agent.name}
        windowTitle={`${agent.name} — ${TABS[tab].title}`}
        back={{ href: '/agents', label: 'Agents' }}
        description={agent.description === '' ? undefined : agent.description}
        actions={
          <ConfirmDialog
            trigger={
              <button type="button" className="button button-danger-quiet">
                Delete agent
              </button>
            }
            title={`Delete the agent “${agent.name}”?`}
            description="Its settings go for good. Its datastores and past conversations stay."
            confirmLabel="Delete agent"
            onConfirm={() => remove.mutateAsync(agent.id).then(() => navigate('/agents', { replace: true }))}
          />
        }
      />
      <Tabs.Root
        value={tab}
        onValueChange={(next) =>
          setParams((current) => (next === 'settings' ? {} : { ...Object.fromEntries(current), tab: next }), { replace: true })
        }
        activationMode="manual"
      >
        <Tabs.List className="tabs" aria-label="Agent">
          {TAB_NAMES.map((name) => (
            <Tabs.Trigger key={name} value={name} className="tab">
              {TABS[name].label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TAB_NAMES.map((name) => {
          const { Panel } = TABS[name];
          return (
            <Tabs.Content key={name} value={name} className="tab-panel">
              <Panel agent={agent} />
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
    </>
  );
}

function AgentSettings({ agent }: { agent: Agent }) {
  const update = useUpdateAgent(agent.id);
  return (
    <>
      <SuccessNotice shown={update.isSuccess} />
      <AgentForm agent={agent} submitLabel="Save changes" {...submitsTo(update)} />
    </>
  );
}
