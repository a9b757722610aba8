import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreatedWebhookBody, DeliveryBody, ListedWebhookBody, WebhookBody, WebhookChangesBody } from '../../../../src/contract/webhooks';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

export type Webhook = WebhookBody;

/** An endpoint as the list gives it: `consecutiveFailures` above 0 says it is failing. */
export type ListedWebhook = ListedWebhookBody;

/** A new endpoint, with its signing secret (in this answer only). */
export type CreatedWebhook = CreatedWebhookBody;

/** What the endpoint form sends, to create (url and events needed) or to change (any of them). */
export type WebhookInput = WebhookChangesBody;

/** A delivery (a webhook call or a notification e-mail) with its attempts. */
export type Delivery = DeliveryBody;

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

export const useCreateWebhook = () => useWebhookMutation((body: WebhookInput) => api<CreatedWebhook>('/webhooks', { method: 'POST', body }));

export const useUpdateWebhook = (id: string) => useWebhookMutation((body: WebhookInput) => api<Webhook>(webhookPath(id), { method: 'PATCH', body }));

export const useDeleteWebhook = () => useWebhookMutation((id: string) => api<Webhook>(webhookPath(id), { method: 'DELETE' }));

export const useReplayDelivery = (id: string) =>
  useWebhookMutation((deliveryId: string) =>
    api<Delivery>(`${webhookPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`, { method: 'POST' }),
  );
