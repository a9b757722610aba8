import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChannelConnectionBody as ChannelConnection,
  ConnectionTestResultBody as ConnectionTest,
  CreateChannelConnectionBody as NewChannelConnection,
  MailConfigBody,
  TelegramConfigBody,
  UpdateChannelConnectionBody as ChannelConnectionChanges,
} from '../../../../src/contract/channel-connections';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

/**
 * The contract's channel types under the dashboard's names: a connection to e-mail or a messenger with its
 * secrets replaced by hints (GET /agents/{id}/channels), what POST /agents/{id}/channels takes, what
 * PATCH /channels/{id} takes (a secret left out stays), and what a connection's test found.
 */
export type { ChannelConnection, ChannelConnectionChanges, ConnectionTest, NewChannelConnection };
export type {
  ConnectableChannel,
  CrispConfigBody as CrispConfig,
  CrispConfigInputBody as CrispConfigInput,
  MailConfigBody as MailConfig,
  MailConfigInputBody as MailConfigInput,
  SlackConfigBody as SlackConfig,
  SlackConfigInputBody as SlackConfigInput,
  TelegramConfigBody as TelegramConfig,
  TelegramConfigInputBody as TelegramConfigInput,
  WhatsAppConfigBody as WhatsAppConfig,
  WhatsAppConfigInputBody as WhatsAppConfigInput,
} from '../../../../src/contract/channel-connections';

export type ConnectionStatus = ChannelConnection['status'];

export type TelegramMode = TelegramConfigBody['mode'];

export type MailInbound = MailConfigBody['inbound'];

export const channelKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'channels'] as const,
  ofAgent: (workspaceId: string, agentId: string) => [...channelKeys.all(workspaceId), 'agent', agentId] as const,
};

const connectionPath = (id: string) => `/channels/${encodeURIComponent(id)}`;

/** `enabled: false` for members, whom the API refuses (only owners and admins manage channels). */
export function useChannelConnections(agentId: string, { enabled = true } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: channelKeys.ofAgent(workspaceId, agentId),
    queryFn: () => api<ChannelConnection[]>(`/agents/${encodeURIComponent(agentId)}/channels`),
    enabled,
    // "Last message 3 minutes ago" and a failing status change without anyone touching the page.
    refetchInterval: 30_000,
  });
}

/** A change to an agent's connections: its list is refetched. */
function useChannelsMutation<Input, Output>(agentId: string, send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelKeys.ofAgent(workspaceId, agentId) }),
  });
}

export const useConnectChannel = (agentId: string) =>
  useChannelsMutation(agentId, (body: NewChannelConnection) =>
    api<ChannelConnection>(`/agents/${encodeURIComponent(agentId)}/channels`, { method: 'POST', body }),
  );

export const useUpdateChannel = (connection: Pick<ChannelConnection, 'id' | 'agentId'>) =>
  useChannelsMutation(connection.agentId, (body: ChannelConnectionChanges) =>
    api<ChannelConnection>(connectionPath(connection.id), { method: 'PATCH', body }),
  );

export const useDisconnectChannel = (connection: Pick<ChannelConnection, 'id' | 'agentId'>) =>
  useChannelsMutation(connection.agentId, () => api<ChannelConnection>(connectionPath(connection.id), { method: 'DELETE' }));

/** A test records its outcome on the connection (last error, the bot's name): the list is refetched. */
export const useTestChannel = (connection: Pick<ChannelConnection, 'id' | 'agentId'>) =>
  useChannelsMutation(connection.agentId, () => api<ConnectionTest>(`${connectionPath(connection.id)}/test`, { method: 'POST' }));
