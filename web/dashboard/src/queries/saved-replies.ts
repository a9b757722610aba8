import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NewSavedReplyBody, SavedReplyBody, SavedReplyChangesBody } from '../../../../src/contract/saved-replies';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';

/** A canned answer, inserted in a reply by typing `/` and its shortcut. */
export type SavedReply = SavedReplyBody;
export type NewSavedReply = NewSavedReplyBody;
export type SavedReplyChanges = SavedReplyChangesBody;

export const savedReplyKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'saved-replies'] as const,
};

const savedReplyPath = (id: string) => `/saved-replies/${encodeURIComponent(id)}`;

/** The workspace's saved replies, by shortcut. */
export function useSavedReplies() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: savedReplyKeys.all(workspaceId), queryFn: ({ signal }) => api<SavedReply[]>('/saved-replies', { signal }) });
}

function useSavedReplyMutation<Input, Output>(send: (input: Input) => Promise<Output>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => queryClient.invalidateQueries({ queryKey: savedReplyKeys.all(workspaceId) }) });
}

export const useCreateSavedReply = () => useSavedReplyMutation((body: NewSavedReply) => api<SavedReply>('/saved-replies', { method: 'POST', body }));

export const useUpdateSavedReply = (id: string) =>
  useSavedReplyMutation((body: SavedReplyChanges) => api<SavedReply>(savedReplyPath(id), { method: 'PATCH', body }));

export const useDeleteSavedReply = () => useSavedReplyMutation((id: string) => api<SavedReply>(savedReplyPath(id), { method: 'DELETE' }));
