import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createProviderModel, type ModelLimits, type ModelProviderKind, type ModelRegistry } from '../llm/chat/model-registry.js';
import type { ModelProviderRecord, Store } from '../store/store.js';
import type { SecretBox } from './secret-box.js';

/** Who answers for a model name: what the playground shows under an answer. */
export interface AnsweredBy {
  /** The model name asked for (`llm_a`). */
  name: string;
  /** The kind of provider: `local` is the built-in offline model. */
  provider: ModelProviderKind;
  /** The provider's model id (`gpt-4o-mini`, `local-extractive`). */
  model: string;
  /** The workspace's provider that serves it; null: the operator's configuration (environment variables). */
  providerName: string | null;
}

/** A model ready to answer, with its limits, its provider's key (cut from what is logged) and who it is. */
export interface ServedModel {
  model: LanguageModelV3;
  limits: ModelLimits;
  answeredBy: AnsweredBy;
  secret?: string;
}

/** One model name as a workspace sees it: what serves it, and what would without the workspace's choice. */
export interface WorkspaceModel extends AnsweredBy {
  /** The workspace's provider serving it; null when the operator's configuration does. */
  providerId: string | null;
  /** The operator's configuration for the name: what serves it when the workspace chose nothing. */
  operatorDefault: { provider: ModelProviderKind; model: string };
}

/** Models built from a workspace's providers, kept this many at most (the oldest built goes first). */
const CACHED_MODELS = 500;

/** What a sealed key is bound to: its provider row. */
export const sealingContextOf = (provider: Pick<ModelProviderRecord, 'workspaceId' | 'id'>): string =>
  `model_provider:${provider.workspaceId}:${provider.id}`;

/**
 * Which model answers for a model name in a workspace: the provider model the workspace chose on its Models
 * page, else the operator's configuration (the {@link ModelRegistry} built from the environment).
 *
 * Each answer reads the name's route (one indexed read, so a change made by any process applies to the next
 * answer); the model built from it, with its key opened, is cached under the provider's id and `updatedAt`
 * and the model id, so an edited provider or a new model id builds anew and nothing stale is served.
 */
export class WorkspaceModels {
  readonly #built = new Map<string, Omit<ServedModel, 'answeredBy'>>();

  constructor(
    private readonly store: Store,
    private readonly registry: ModelRegistry,
    private readonly box: SecretBox,
    private readonly fetchVia?: typeof fetch,
  ) {}

  /** Every model name agents may use: the operator's (a workspace maps names, it adds none). */
  modelNames(): string[] {
    return this.registry.modelNames();
  }

  /**
   * The model answering for `modelName` in the workspace. Throws the registry's `UnknownModelError` for a name
   * it does not know, and `SECRET_KEY_MISMATCH` when the provider's key was sealed under another secret key.
   */
  async resolve(workspaceId: string, modelName: string): Promise<ServedModel> {
    const limits = this.registry.limitsOf(modelName);
    const found = await this.store.modelProviders.routeOf(workspaceId, modelName);
    if (found === undefined) {
      const model = this.registry.resolveModel(modelName);
      const provider = this.registry.catalogue().find((entry) => entry.name === modelName)!.provider;
      return { model, limits, answeredBy: { name: modelName, provider, model: model.modelId, providerName: null } };
    }
    const { route, provider } = found;
    const cacheKey = `${provider.id}|${provider.updatedAt}|${route.providerModel}`;
    let built = this.#built.get(cacheKey);
    if (built === undefined) {
      const apiKey = provider.sealedApiKey === null ? null : this.box.open(provider.sealedApiKey, sealingContextOf(provider));
      const settings = { provider: provider.kind, model: route.providerModel, baseURL: provider.baseUrl, apiKey };
      built = { ...createProviderModel(settings, this.fetchVia), ...(apiKey === null ? {} : { secret: apiKey }) };
      this.#remember(cacheKey, built);
    }
    return { ...built, answeredBy: { name: modelName, provider: provider.kind, model: route.providerModel, providerName: provider.name } };
  }

  /** Every model name with what serves it in the workspace, in the registry's order. */
  async catalogue(workspaceId: string): Promise<WorkspaceModel[]> {
    const [routes, providers] = await Promise.all([this.store.modelProviders.routes(workspaceId), this.store.modelProviders.list(workspaceId)]);
    const routeOf = new Map(routes.map((route) => [route.modelName, route]));
    const providerOf = new Map(providers.map((provider) => [provider.id, provider]));
    return this.registry.catalogue().map(({ name, provider, modelId }) => {
      const route = routeOf.get(name);
      const chosen = route && providerOf.get(route.providerId);
      const operatorDefault = { provider, model: modelId };
      if (route === undefined || chosen === undefined)
        return { name, provider, model: modelId, providerName: null, providerId: null, operatorDefault };
      return { name, provider: chosen.kind, model: route.providerModel, providerName: chosen.name, providerId: chosen.id, operatorDefault };
    });
  }

  /** Drops the models built from a provider that changed or went (they would no longer be asked for). */
  forget(providerId: string): void {
    for (const key of this.#built.keys()) if (key.startsWith(`${providerId}|`)) this.#built.delete(key);
  }

  #remember(key: string, built: Omit<ServedModel, 'answeredBy'>): void {
    if (this.#built.size >= CACHED_MODELS) this.#built.delete(this.#built.keys().next().value!);
    this.#built.set(key, built);
  }
}
