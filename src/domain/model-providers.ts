import { checkProvider, type ProviderCheck } from '../llm/chat/provider-check.js';
import { BlockedUrlError, type OutboundPolicy } from '../net/address-policy.js';
import { assertAllowedDestination } from '../net/guarded-request.js';
import type { ModelProviderRecord, ProviderKind, Store } from '../store/store.js';
import { ParleyError, invalid, notFound } from '../errors.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import type { SecretBox } from './secret-box.js';
import { sealingContextOf, type WorkspaceModels } from './workspace-models.js';

export interface ProviderInput {
  name: string;
  kind: ProviderKind;
  /** The API root; absent or null: the vendor's own (required for `openai-compatible`). */
  baseUrl?: string | null;
  /** Absent or null: none (an OpenAI-compatible server without auth). */
  apiKey?: string | null;
}

/** What may change; an absent field stays, `apiKey: null` removes the key. */
export type ProviderChanges = Partial<Pick<ProviderInput, 'name' | 'baseUrl' | 'apiKey'>>;

/** A provider as the API shows it: never its key, only a hint of it. */
export type ProviderView = Omit<ModelProviderRecord, 'sealedApiKey' | 'workspaceId'> & {
  /** False when the key was sealed under another secret key: it must be entered again. */
  keyReadable: boolean;
};

/**
 * The outcome of a provider test, in our words: `ok`, or why not (see {@link ProviderCheck}; `blocked`: the
 * outbound policy refuses the address; `key_unreadable`: the key was sealed under another secret key).
 */
export interface ProviderTestResult {
  ok: boolean;
  code: 'ok' | 'blocked' | 'key_unreadable' | Exclude<ProviderCheck, { ok: true }>['failure'];
  message: string;
  /** The provider's HTTP status, when it answered one. */
  status: number | null;
  /** Model ids it offers, when it listed them. */
  models: string[];
  durationMs: number;
}

/** How long a test may take: it is one list request, and a person is waiting. */
const TEST_TIMEOUT_MS = 10_000;

const MESSAGES: Readonly<Record<ProviderTestResult['code'], string>> = {
  ok: 'The provider answered with the key',
  blocked: 'PARLEY_OUTBOUND_ALLOW does not let Parley connect to this address',
  key_unreadable: 'The API key was sealed under another secret key: enter it again',
  unauthorized: 'The provider refused the API key',
  not_found: 'Nothing answers there: check that the base URL is the API root (…/v1)',
  rate_limited: 'The provider is rate limiting requests; try again later',
  unavailable: 'The provider failed on its side; try again later',
  unreachable: 'The provider could not be reached at that address',
  timeout: 'The provider did not answer in time',
  unusable: 'The address answered, but not with a model list: is it an OpenAI-compatible API root?',
  refused: 'The provider refused the request',
};

const NEEDS_BASE_URL: ReadonlySet<ProviderKind> = new Set(['openai-compatible']);
const NEEDS_KEY_WITHOUT_BASE_URL: ReadonlySet<ProviderKind> = new Set(['openai', 'anthropic']);

/** `sk-…x7Qa`: enough to tell keys apart, too little to use one. Short keys show less. */
export function hintOf(apiKey: string): string {
  if (apiKey.length >= 16) return `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}`;
  if (apiKey.length >= 8) return `…${apiKey.slice(-2)}`;
  return '…';
}

/**
 * A workspace's model providers and which of their models serves each model name (the dashboard's Models
 * page). Keys are sealed before they are stored and never leave in clear: not in answers, not in logs.
 */
export class ModelProviderService {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly models: WorkspaceModels,
    private readonly options: { outbound: OutboundPolicy; fetch?: typeof fetch },
  ) {}

  async list(workspaceId: string): Promise<ProviderView[]> {
    return (await this.store.modelProviders.list(workspaceId)).map((provider) => this.view(provider));
  }

  async get(workspaceId: string, id: string): Promise<ProviderView> {
    return this.view(await this.find(workspaceId, id));
  }

  async create(workspaceId: string, input: ProviderInput): Promise<ProviderView> {
    const baseUrl = await this.checkSettings(input.kind, input.baseUrl ?? null, input.apiKey ?? null);
    const at = now();
    const provider: ModelProviderRecord = {
      id: newId(),
      workspaceId,
      name: input.name.trim(),
      kind: input.kind,
      baseUrl,
      sealedApiKey: null,
      apiKeyHint: null,
      createdAt: at,
      updatedAt: at,
    };
    const apiKey = input.apiKey || null;
    await this.store.modelProviders.create({ ...provider, ...(apiKey === null ? {} : this.sealed(provider, apiKey)) });
    return this.get(workspaceId, provider.id);
  }

  async update(workspaceId: string, id: string, changes: ProviderChanges): Promise<ProviderView> {
    const current = await this.find(workspaceId, id);
    const baseUrl = changes.baseUrl === undefined ? current.baseUrl : changes.baseUrl;
    const keyChange = changes.apiKey === undefined ? undefined : changes.apiKey || null;
    // A kept key that no longer opens counts as none: the check asks for a new one where the kind needs it.
    const keptKey = current.sealedApiKey !== null && this.box.canOpen(current.sealedApiKey) ? 'kept' : null;
    const checkedBaseUrl = await this.checkSettings(current.kind, baseUrl, keyChange === undefined ? keptKey : keyChange);
    const updated = await this.store.modelProviders.update(
      workspaceId,
      id,
      {
        name: changes.name?.trim(),
        baseUrl: changes.baseUrl === undefined ? undefined : checkedBaseUrl,
        ...(keyChange === undefined ? {} : keyChange === null ? { sealedApiKey: null, apiKeyHint: null } : this.sealed(current, keyChange)),
      },
      now(),
    );
    if (updated === undefined) throw notFound('Model provider', id);
    this.models.forget(id);
    return this.view(updated);
  }

  /** Deletes the provider; the model names it served go back to the operator's configuration. */
  async delete(workspaceId: string, id: string): Promise<ProviderView> {
    await this.find(workspaceId, id);
    const deleted = await this.store.modelProviders.delete(workspaceId, id);
    if (deleted === undefined) throw notFound('Model provider', id);
    this.models.forget(id);
    return this.view(deleted);
  }

  /** One small call to the provider (its model list), through the outbound policy; never throws for the provider's failures. */
  async test(workspaceId: string, id: string): Promise<ProviderTestResult> {
    const provider = await this.find(workspaceId, id);
    const started = Date.now();
    const result = (code: ProviderTestResult['code'], status: number | null = null, models: string[] = []): ProviderTestResult => ({
      ok: code === 'ok',
      code,
      message: status === null || code === 'ok' ? MESSAGES[code] : `${MESSAGES[code]} (HTTP ${status})`,
      status,
      models,
      durationMs: Date.now() - started,
    });
    if (provider.sealedApiKey !== null && !this.box.canOpen(provider.sealedApiKey)) return result('key_unreadable');
    if (provider.baseUrl !== null && (await this.blocked(provider.baseUrl)) !== null) return result('blocked');
    let apiKey: string | null;
    try {
      apiKey = provider.sealedApiKey === null ? null : this.box.open(provider.sealedApiKey, sealingContextOf(provider));
    } catch {
      return result('key_unreadable');
    }
    const check = await checkProvider(
      { provider: provider.kind, baseURL: provider.baseUrl, apiKey },
      { fetch: this.options.fetch, timeoutMs: TEST_TIMEOUT_MS },
    );
    return check.ok ? result('ok', null, check.models) : result(check.failure, check.status ?? null);
  }

  /** Makes `providerModel` of the workspace's provider serve `modelName` (one of the operator's names). */
  async setRoute(workspaceId: string, modelName: string, choice: { providerId: string; providerModel: string }): Promise<void> {
    this.checkModelName(modelName);
    await this.find(workspaceId, choice.providerId);
    const providerModel = choice.providerModel.trim();
    if (providerModel === '') throw invalid('The provider’s model id is required', [{ field: 'model', message: 'must not be empty' }]);
    await this.store.modelProviders.setRoute({ workspaceId, modelName, providerId: choice.providerId, providerModel, updatedAt: now() });
  }

  /** `modelName` goes back to the operator's configuration. */
  async clearRoute(workspaceId: string, modelName: string): Promise<void> {
    this.checkModelName(modelName);
    await this.store.modelProviders.deleteRoute(workspaceId, modelName);
  }

  private find(workspaceId: string, id: string): Promise<ModelProviderRecord> {
    return findInWorkspace(this.store.modelProviders, 'Model provider', workspaceId, id);
  }

  private view({ sealedApiKey, workspaceId: _workspace, ...provider }: ModelProviderRecord): ProviderView {
    return { ...provider, keyReadable: sealedApiKey === null || this.box.canOpen(sealedApiKey) };
  }

  private sealed(provider: Pick<ModelProviderRecord, 'workspaceId' | 'id'>, apiKey: string) {
    return { sealedApiKey: this.box.seal(apiKey, sealingContextOf(provider)), apiKeyHint: hintOf(apiKey) };
  }

  private checkModelName(modelName: string): void {
    const names = this.models.modelNames();
    if (!names.includes(modelName)) {
      throw new ParleyError('UNKNOWN_MODEL', `Unknown model "${modelName}"; available models: ${names.join(', ')}`);
    }
  }

  /** The base URL without trailing slashes, once the kind's needs are met and the outbound policy allows it. */
  private async checkSettings(kind: ProviderKind, baseUrl: string | null, apiKey: string | null): Promise<string | null> {
    if (baseUrl === null && NEEDS_BASE_URL.has(kind)) {
      throw invalid('An OpenAI-compatible server needs its base URL', [{ field: 'baseUrl', message: 'is required for openai-compatible' }]);
    }
    if (baseUrl === null && apiKey === null && NEEDS_KEY_WITHOUT_BASE_URL.has(kind)) {
      throw invalid(`An API key is needed for ${kind === 'anthropic' ? 'Anthropic' : 'OpenAI'}`, [{ field: 'apiKey', message: 'is required' }]);
    }
    if (baseUrl === null) return null;
    const problem = await this.blocked(baseUrl);
    if (problem !== null) throw invalid(`Base URL refused: ${problem}`, [{ field: 'baseUrl', message: problem }]);
    return baseUrl.replace(/\/+$/, '');
  }

  /** Why the outbound policy refuses `baseUrl`, or null when it allows it. */
  private async blocked(baseUrl: string): Promise<string | null> {
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      return 'must be an absolute http(s) URL';
    }
    try {
      await assertAllowedDestination(parsed, this.options.outbound);
      return null;
    } catch (error) {
      if (error instanceof BlockedUrlError) return error.message;
      throw error;
    }
  }
}
