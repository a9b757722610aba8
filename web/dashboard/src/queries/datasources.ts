import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  ChunkBody,
  DatasourceBody,
  DatasourceStatus,
  NewDatasourceBody,
  OnDuplicateChoice,
  DatasourceChangesBody,
  QaDatasourceBody,
} from '../../../../src/contract/datasources';
import { api, upload, type UploadProgress } from '../api';
import type { LiveCache, LiveEvent } from '../live/live-event';
import { useWorkspaceId } from '../session/session';

export type { DatasourceStatus };

export type Datasource = DatasourceBody;

/** How often a URL datasource is fetched again. */
export type RefreshInterval = NonNullable<Datasource['config']['refreshInterval']>;

/** A chunk of an indexed datasource, as its chunk list pages them. */
export type Chunk = ChunkBody;

export const datasourceKeys = {
  all: (workspaceId: string) => ['workspaces', workspaceId, 'datasources'] as const,
  ofDatastore: (workspaceId: string, datastoreId: string) => [...datasourceKeys.all(workspaceId), 'of-datastore', datastoreId] as const,
  chunks: (workspaceId: string, id: string) => [...datasourceKeys.all(workspaceId), id, 'chunks'] as const,
};

/** Still queued or being processed: the worker says when it is done (datasource.synched or datasource.error). */
export const isUnsettled = (datasource: Datasource): boolean =>
  datasource.status === 'unsynched' || datasource.status === 'pending' || datasource.status === 'running';

export const fetchDatasources = (datastoreId: string) => api<Datasource[]>(`/datastores/${encodeURIComponent(datastoreId)}/datasources`);

/** How often the list is fetched while a datasource in it is queued or running: its progress moves. */
const PROGRESS_MS = 2000;

/**
 * A datastore's datasources. While one is queued or running the list is fetched every 2 s, for its
 * progress (no event tells it); once all are settled it is not, and the live event stream says when one
 * is processed (see datasourceLiveCache).
 */
export function useDatasources(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: datasourceKeys.ofDatastore(workspaceId, datastoreId),
    queryFn: () => fetchDatasources(datastoreId),
    refetchInterval: (query) => (query.state.data?.some(isUnsettled) ? PROGRESS_MS : false),
  });
}

/** A change of a datastore's datasources changes its list, counts and search results. */
function invalidateDatastore(queryClient: QueryClient, workspaceId: string, datastoreId: string) {
  void queryClient.invalidateQueries({ queryKey: ['workspaces', workspaceId, 'datastores', datastoreId, 'search'] });
  return queryClient.invalidateQueries({ queryKey: datasourceKeys.ofDatastore(workspaceId, datastoreId) });
}

type DatasourceEvent = Extract<LiveEvent, { type: `datasource.${string}` }>;

const isDatasourceEvent = (event: LiveEvent): event is DatasourceEvent => event.type.startsWith('datasource.');

/** A datasource event (processed, failed): its datastore's list, counts, chunks and search results change. */
export function datasourceLiveCache(queryClient: QueryClient, workspaceId: string): LiveCache {
  return {
    apply(event) {
      if (!isDatasourceEvent(event)) return;
      queryClient.removeQueries({ queryKey: datasourceKeys.chunks(workspaceId, event.data.datasourceId) });
      void invalidateDatastore(queryClient, workspaceId, event.data.datastoreId);
    },
    refetch() {
      void queryClient.invalidateQueries({ queryKey: datasourceKeys.all(workspaceId) });
    },
  };
}

export type NewDatasource = NewDatasourceBody;

export function useAddDatasource(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewDatasource) => api<Datasource>('/datasources', { method: 'POST', body: { ...body, datastoreId } }),
    onSuccess: () => invalidateDatastore(queryClient, workspaceId, datastoreId),
  });
}

export type NewQaEntry = QaDatasourceBody;

/** A question and its answer as a Q&A datasource of the datastore the body names (the inbox's Improve, the gaps' Answer this). */
export function useAddQaEntry() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewQaEntry) => api<Datasource>('/datasources', { method: 'POST', body }),
    onSuccess: (datasource) => invalidateDatastore(queryClient, workspaceId, datasource.datastoreId),
  });
}

/** A Q&A entry's question, answer or other wordings changed; it is indexed again. */
export function useEditQaEntry() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: DatasourceChangesBody }) =>
      api<Datasource>(`/datasources/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes }),
    onSuccess: (datasource) => {
      queryClient.removeQueries({ queryKey: datasourceKeys.chunks(workspaceId, datasource.id) });
      return invalidateDatastore(queryClient, workspaceId, datasource.datastoreId);
    },
  });
}

/**
 * Uploads one file as a datasource, reporting progress; the list is refreshed when it is in. The dashboard
 * sends `reject` first, so a person chooses what happens to a duplicate (DuplicateChoice).
 */
export function useUploadFile(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, onProgress, onDuplicate }: { file: File; onProgress: UploadProgress; onDuplicate: OnDuplicateChoice }) => {
      const form = new FormData();
      form.append('type', 'file');
      form.append('datastoreId', datastoreId);
      form.append('fileName', file.name);
      form.append('onDuplicate', onDuplicate);
      form.append('file', file, file.name);
      return upload<Datasource>('/datasources', form, onProgress);
    },
    onSuccess: () => invalidateDatastore(queryClient, workspaceId, datastoreId),
  });
}

export function useResyncDatasource(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Datasource>(`/datasources/${encodeURIComponent(id)}/resync`, { method: 'POST' }),
    onSuccess: (datasource) => {
      queryClient.removeQueries({ queryKey: datasourceKeys.chunks(workspaceId, datasource.id) });
      return invalidateDatastore(queryClient, workspaceId, datastoreId);
    },
  });
}

/** Changes how often a URL datasource is re-checked; the answer says when the next check is due. */
export function useSetRefreshInterval(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, interval }: { id: string; interval: RefreshInterval }) =>
      api<Datasource>(`/datasources/${encodeURIComponent(id)}`, { method: 'PATCH', body: { config: { refreshInterval: interval } } }),
    onSuccess: () => invalidateDatastore(queryClient, workspaceId, datastoreId),
  });
}

export function useDeleteDatasource(datastoreId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Datasource>(`/datasources/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: (datasource) => {
      queryClient.removeQueries({ queryKey: datasourceKeys.chunks(workspaceId, datasource.id) });
      return invalidateDatastore(queryClient, workspaceId, datastoreId);
    },
  });
}

const CHUNK_PAGE = 50;

/** A datasource's chunks in document order, a page at a time. */
export function useChunks(id: string) {
  const workspaceId = useWorkspaceId();
  return useInfiniteQuery({
    queryKey: datasourceKeys.chunks(workspaceId, id),
    queryFn: ({ pageParam }) => api<Chunk[]>(`/datasources/${encodeURIComponent(id)}/chunks?offset=${pageParam}&limit=${CHUNK_PAGE}`),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < CHUNK_PAGE ? undefined : pages.length * CHUNK_PAGE),
  });
}
