import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DatastoreBody, DatastoreInputBody, SearchHitBody, SearchMode, SearchQueryBody } from '../../../../src/contract/datastores';
import { api } from '../api';
import { useWorkspaceId } from '../session/session';
import { datasourceKeys, fetchDatasources, type Datasource } from './datasources';

export type { SearchMode };

export type Datastore = DatastoreBody;

export type DatastoreInput = DatastoreInputBody;

export type SearchHit = SearchHitBody;

export const datastoreKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'datastores'] as const,
  detail: (workspaceId: string, id: string) => [...datastoreKeys.all(workspaceId), id] as const,
  search: (workspaceId: string, id: string, mode: SearchMode, query: string, topK: number) =>
    [...datastoreKeys.detail(workspaceId, id), 'search', { mode, query, topK }] as const,
};

const datastorePath = (id: string) => `/datastores/${encodeURIComponent(id)}`;

export function useDatastores() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: datastoreKeys.all(workspaceId), queryFn: () => api<Datastore[]>('/datastores') });
}

/** Each datastore's datasources (for the list's document and chunk counts), shared with the datastore page. */
export function useDatasourcesOf(datastoreIds: readonly string[]) {
  const workspaceId = useWorkspaceId();
  return useQueries({
    queries: datastoreIds.map((id) => ({ queryKey: datasourceKeys.ofDatastore(workspaceId, id), queryFn: () => fetchDatasources(id) })),
    combine: (results) => new Map<string, Datasource[] | undefined>(datastoreIds.map((id, index) => [id, results[index]?.data])),
  });
}

export function useDatastore(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: datastoreKeys.detail(workspaceId, id), queryFn: () => api<Datastore>(datastorePath(id)) });
}

export function useCreateDatastore() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DatastoreInput) => api<Datastore>('/datastores', { method: 'POST', body: { type: 'vector_a', ...body } }),
    onSuccess: (datastore) => {
      queryClient.setQueryData(datastoreKeys.detail(workspaceId, datastore.id), datastore);
      return queryClient.invalidateQueries({ queryKey: datastoreKeys.all(workspaceId), exact: true });
    },
  });
}

export function useUpdateDatastore(id: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DatastoreInput) => api<Datastore>(datastorePath(id), { method: 'PATCH', body }),
    onSuccess: (datastore) => {
      queryClient.setQueryData(datastoreKeys.detail(workspaceId, id), datastore);
      // Weights change search results.
      void queryClient.invalidateQueries({ queryKey: [...datastoreKeys.detail(workspaceId, id), 'search'] });
      return queryClient.invalidateQueries({ queryKey: datastoreKeys.all(workspaceId), exact: true });
    },
  });
}

export function useDeleteDatastore() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Datastore>(datastorePath(id), { method: 'DELETE' }),
    onSuccess: (datastore) => {
      queryClient.removeQueries({ queryKey: datastoreKeys.detail(workspaceId, datastore.id) });
      queryClient.removeQueries({ queryKey: datasourceKeys.ofDatastore(workspaceId, datastore.id) });
      return queryClient.invalidateQueries({ queryKey: datastoreKeys.all(workspaceId), exact: true });
    },
  });
}

export function useDatastoreSearch(id: string, mode: SearchMode, query: string, topK: number) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: datastoreKeys.search(workspaceId, id, mode, query, topK),
    queryFn: ({ signal }) => {
      const body: SearchQueryBody = { query, mode, topK };
      return api<SearchHit[]>(`${datastorePath(id)}/query`, { method: 'POST', body, signal });
    },
    enabled: query.trim() !== '',
    staleTime: 30_000,
    retry: false,
  });
}
