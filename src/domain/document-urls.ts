/**
 * A stable URL of the document a chunk comes from, as the hosted service gave one in a search hit's `source`
 * (LangChain's retrievers keep it as the document's source): its web address, else Parley's URL of its
 * datasource (`<PARLEY_PUBLIC_URL>/datasources/{id}`, the record, read with a key of the workspace).
 */
export function documentUrl(publicUrl: string, chunk: { sourceUrl: string | null; datasourceId: string }): string {
  return chunk.sourceUrl ?? `${publicUrl.replace(/\/+$/, '')}/datasources/${encodeURIComponent(chunk.datasourceId)}`;
}
