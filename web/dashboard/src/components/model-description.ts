import type { Model, ProviderKind, ServingKind } from '../queries/models';

export const PROVIDER_LABELS: Readonly<Record<ServingKind, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible server',
  local: 'Built-in offline model',
};

export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai', 'anthropic', 'openai-compatible'];

/** What each built-in name is meant to be; the hosted service's names stand in for one of these. */
const TIERS: Readonly<Record<string, string>> = {
  llm_a: 'the general model',
  llm_b: 'the strongest model',
  llm_b_mini: 'the small, fast model',
  llm_c: 'the reasoning model',
};

export const BUILT_IN_NAMES = Object.keys(TIERS);

/** A model name's place: a tier of Parley's, or a name clients of the hosted service send. */
export const roleOf = (name: string): string => TIERS[name] ?? 'a name clients of the hosted service send';

/** Who serves a name, in a few words: `fake-chat on Our vLLM`, `gpt-4o (OpenAI, server default)`. */
export function servedBy(model: Pick<Model, 'provider' | 'model' | 'providerName'>): string {
  if (model.provider === 'local') return 'the built-in offline model';
  return model.providerName === null
    ? `${model.model} (${PROVIDER_LABELS[model.provider]}, server default)`
    : `${model.model} on ${model.providerName}`;
}

/** What the model does with an agent's settings: the offline one ignores them, a real one follows them. */
export function whatItDoes(provider: ServingKind): string {
  if (provider === 'local') {
    return 'It writes nothing of its own: it picks the sentences of your documents that best answer the question. The system prompt and the temperature change nothing for it.';
  }
  return 'It writes answers from the passages found in your documents, following the system prompt and user prompt; the temperature sets how varied they are.';
}
