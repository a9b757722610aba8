/** Model providers a workspace connects (their API keys sealed) and which of their models serves each model name. */
import type { ScopedReads } from './owned-records.js';

/** The APIs a workspace's provider may speak: OpenAI's, Anthropic's, or OpenAI's on another server (vLLM, Ollama, llama.cpp). */
export type ProviderKind = 'openai' | 'anthropic' | 'openai-compatible';

export interface ModelProviderRecord {
  id: string;
  workspaceId: string;
  /** What the workspace calls it ("Our vLLM"). */
  name: string;
  kind: ProviderKind;
  /** The API root (`…/v1`); null: the vendor's own. */
  baseUrl: string | null;
  /** The API key sealed by the domain's secret box (never the key in clear); null: none. */
  sealedApiKey: string | null;
  /** What a person may see of the key (`sk-…x7Qa`); null when there is none. */
  apiKeyHint: string | null;
  createdAt: string;
  /** Changes with every edit: models built from the provider are cached under it. */
  updatedAt: string;
}

export type ModelProviderChanges = Partial<Pick<ModelProviderRecord, 'name' | 'baseUrl' | 'sealedApiKey' | 'apiKeyHint'>>;

/** A workspace's choice of the provider model that serves one model name. */
export interface ModelRouteRecord {
  workspaceId: string;
  /** A name agents and questions use (`llm_a`, `gpt_4o`, …). */
  modelName: string;
  providerId: string;
  /** The provider's own model id (`gpt-4o-mini`, `llama3.1:8b`). */
  providerModel: string;
  updatedAt: string;
}

/** A workspace's model providers and routes; deleting a provider deletes the routes through it. */
export interface ModelProviderStore extends ScopedReads<ModelProviderRecord> {
  create(provider: ModelProviderRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: ModelProviderChanges, at: string): Promise<ModelProviderRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<ModelProviderRecord | undefined>;
  /** The workspace's routes, by model name. */
  routes(workspaceId: string): Promise<ModelRouteRecord[]>;
  /** The route of one model name with its provider: what an answer needs, in one read. */
  routeOf(workspaceId: string, modelName: string): Promise<{ route: ModelRouteRecord; provider: ModelProviderRecord } | undefined>;
  /** Creates or replaces the route of `route.modelName`. */
  setRoute(route: ModelRouteRecord): Promise<void>;
  /** Removes the route of `modelName`; false when it had none. */
  deleteRoute(workspaceId: string, modelName: string): Promise<boolean>;
}
