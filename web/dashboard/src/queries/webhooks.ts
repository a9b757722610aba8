import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export const EVENT_TYPES = [
  'conversation-resolved',
  'human-requested',
  'conversation.created',
  'message.created',
  'datasource.synched',
  'datasource.error',
] as const;

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** An endpoint as the list gives it. */
export interface ListedWebhook extends Webhook {
  /** Tried deliveries since its newest success; more than 0: it is failing. */
  consecutiveFailures: number;
}

export interface CreatedWebhook extends Webhook {
  secret: string;
}

export type WebhookInput = Partial<Pick<Webhook, 'url' | 'events' | 'description' | 'enabled'>>;

export interface DeliveryAttempt {
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  replayOf: string | null;
  createdAt: string;
  completedAt: string | null;
  attempts: DeliveryAttempt[];
  body: string;
}

export const webhookKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'webhooks'] as const,
  detail: (workspaceId: string, id: string) => [...webhookKeys.all(workspaceId), id] as const,
  deliveries: (workspaceId: string, id: string) => [...webhookKeys.detail(workspaceId, id), 'deliveries'] as const,
};

const webhookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** `enabled: false` for members, whom the API refuses (only owners and admins manage webhooks). */
export function useWebhooks({ enabled = true } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: webhookKeys.all(workspaceId), queryFn: () => api<ListedWebhook[]>('/webhooks'), enabled });
}

export function useWebhook(id: string, { enabled = true } = {}) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: webhookKeys.detail(workspaceId, id), queryFn: () => api<Webhook>(webhookPath(id)), enabled });
}

/** The endpoint's deliveries, refreshed while any is still being retried. */
export function useDeliveries(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: webhookKeys.deliveries(workspaceId, id),
    queryFn: () => api<Delivery[]>(`${webhookPath(id)}/deliveries`),
    refetchInterval: (query) => (query.state.data?.some((delivery) => delivery.status === 'pending') ? 5000 : false),
  });
}

function useWebhookMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all(workspaceId) }) });
}

export const useCreateWebhook = () =>
  useWebhookMutation((body: WebhookInput) => api<CreatedWebhook>('/webhooks', { method: 'POST', body }));

export const useUpdateWebhook = (id: string) =>
  useWebhookMutation((body: WebhookInput) => api<Webhook>(webhookPath(id), { method: 'PATCH', body }));

export const useDeleteWebhook = () => useWebhookMutation((id: string) => api<Webhook>(webhookPath(id), { method: 'DELETE' }));

export const useReplayDelivery = (id: string) =>
  useWebhookMutation((deliveryId: string) =>
    api<Delivery>(`${webhookPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`, { method: 'POST' }),
  );
