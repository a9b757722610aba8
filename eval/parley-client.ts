import { z } from 'zod';

export type RetrievalMode = 'vector' | 'keyword' | 'hybrid';

export const Datastore = z.object({ id: z.string() }).loose();

export const DatasourceStatus = z.enum(['unsynched', 'pending', 'running', 'synched', 'error', 'usage_limit_reached']);

const Datasource = z.object({
  id: z.string(),
  name: z.string(),
  status: DatasourceStatus,
  custom_id: z.string().nullable(),
  error: z.string().nullable(),
  nbChunks: z.number(),
});
export type Datasource = z.infer<typeof Datasource>;

const Chunk = z.object({ ordinal: z.number(), text: z.string() });

const SearchHit = z.object({
  text: z.string(),
  score: z.number(),
  custom_id: z.string().nullable(),
  chunk_id: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

const Agent = z.object({ id: z.string() }).loose();
const Answer = z.object({ answer: z.string(), sources: z.array(z.object({ custom_id: z.string().optional() }).loose()).optional() }).loose();
export type Answer = z.infer<typeof Answer>;

/** A refused or failed API call, with the status and the body Parley answered. */
export class ParleyApiError extends Error {
  override readonly name = 'ParleyApiError';
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: HTTP ${status} ${body.slice(0, 500)}`);
  }
}

/** The few calls the evaluation makes, as any client would make them: JSON over HTTP with a workspace key. */
export class ParleyClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  createDatastore(name: string): Promise<z.infer<typeof Datastore>> {
    return this.call('POST', '/datastores', Datastore, { name });
  }

  /** Changes datastore settings, such as the fusion weights `vectorWeight` and `keywordWeight`. */
  updateDatastore(id: string, changes: Record<string, unknown>): Promise<z.infer<typeof Datastore>> {
    return this.call('PATCH', `/datastores/${encodeURIComponent(id)}`, Datastore, changes);
  }

  /** The datastore as the API shows it, every field kept (the embedding model, when it is exposed). */
  getDatastore(id: string): Promise<z.infer<typeof Datastore>> {
    return this.call('GET', `/datastores/${encodeURIComponent(id)}`, Datastore);
  }

  addText(input: { datastoreId: string; name: string; text: string; customId: string }): Promise<Datasource> {
    const body = { type: 'text', datastoreId: input.datastoreId, name: input.name, text: input.text, custom_id: input.customId };
    return this.call('POST', '/datasources', Datasource, body);
  }

  listDatasources(datastoreId: string): Promise<Datasource[]> {
    return this.call('GET', `/datastores/${encodeURIComponent(datastoreId)}/datasources`, z.array(Datasource));
  }

  /** One page of a datasource's chunks, in document order. */
  listChunks(datasourceId: string, offset: number, limit: number): Promise<z.infer<typeof Chunk>[]> {
    return this.call('GET', `/datasources/${encodeURIComponent(datasourceId)}/chunks?offset=${offset}&limit=${limit}`, z.array(Chunk));
  }

  query(datastoreId: string, input: { query: string; topK: number; mode: RetrievalMode }): Promise<SearchHit[]> {
    return this.call('POST', `/datastores/${encodeURIComponent(datastoreId)}/query`, z.array(SearchHit), input);
  }

  /** An agent that answers from the datastore, with the default model (the built-in one unless configured). */
  createAgent(datastoreId: string): Promise<z.infer<typeof Agent>> {
    return this.call('POST', '/agents', Agent, { name: 'eval answerer', tools: [{ type: 'datastore', datastoreId }] });
  }

  ask(agentId: string, query: string): Promise<Answer> {
    return this.call('POST', `/agents/${encodeURIComponent(agentId)}/query`, Answer, { query });
  }

  private async call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new ParleyApiError(response.status, text, `${method} ${path}`);
    const parsed = schema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${method} ${path}: unexpected response: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }
}
