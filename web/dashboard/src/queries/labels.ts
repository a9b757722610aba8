import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BulkLabelsRequest,
  BulkLabelsResultBody,
  LabelBody,
  LabelChangesBody,
  LabelRefBody,
  NewLabelBody,
} from '../../../../src/contract/labels';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';
import { conversationKeys } from './conversations';

export type Label = LabelBody;
/** A label as a conversation shows it. */
export type LabelRef = LabelRefBody;
export type NewLabel = NewLabelBody;
export type LabelChanges = LabelChangesBody;

export const labelKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'labels'] as const,
};

const labelPath = (id: string) => `/labels/${encodeURIComponent(id)}`;

/** The workspace's labels, by name. */
export function useLabels() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: labelKeys.all(workspaceId), queryFn: ({ signal }) => api<Label[]>('/labels', { signal }) });
}

/** A change to labels or to which conversations carry them: both are refetched. */
function useLabelMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: labelKeys.all(workspaceId) }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.all(workspaceId) }),
      ]),
  });
}

export const useCreateLabel = () => useLabelMutation((body: NewLabel) => api<Label>('/labels', { method: 'POST', body }));

export const useUpdateLabel = (id: string) => useLabelMutation((body: LabelChanges) => api<Label>(labelPath(id), { method: 'PATCH', body }));

export const useDeleteLabel = () => useLabelMutation((id: string) => api<Label>(labelPath(id), { method: 'DELETE' }));

const conversationLabelsPath = (conversationId: string) => `/conversations/${encodeURIComponent(conversationId)}/labels`;

/** Puts a label on the conversation, or takes it off. */
export const useToggleLabel = (conversationId: string) =>
  useLabelMutation(({ labelId, on }: { labelId: string; on: boolean }) =>
    on
      ? api<LabelRef[]>(conversationLabelsPath(conversationId), { method: 'POST', body: { labelIds: [labelId] } })
      : api<LabelRef[]>(`${conversationLabelsPath(conversationId)}/${encodeURIComponent(labelId)}`, { method: 'DELETE' }),
  );

/** Puts labels on and takes labels off many conversations in one request. */
export const useBulkLabels = () =>
  useLabelMutation((body: BulkLabelsRequest) => api<BulkLabelsResultBody>('/conversations/bulk-labels', { method: 'POST', body }));
