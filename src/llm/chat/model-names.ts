/** Parley's own model names (the spec's), each a tier the registry serves by default. */
export const BUILT_IN_MODEL_NAMES = ['llm_a', 'llm_b', 'llm_b_mini', 'llm_c'] as const;
export type BuiltInModelName = (typeof BUILT_IN_MODEL_NAMES)[number];

/**
 * How one of the hosted service's model names is served unless PARLEY_MODELS names it: by that vendor's
 * model when the vendor is configured (PARLEY_OPENAI_API_KEY or PARLEY_OPENAI_BASE_URL for `openai`,
 * PARLEY_ANTHROPIC_API_KEY for `anthropic`), else as the built-in name of the same tier is.
 */
export interface HostedModel {
  /** The built-in name whose model serves it when its vendor is not configured. */
  tier: BuiltInModelName;
  /** OpenAI's model id for it. */
  openai?: string;
  /** Anthropic's model id for it. */
  anthropic?: string;
}

/**
 * The hosted service's `AgentModelName` values (its database schema), which clients written for it send as
 * `modelName` (README, "Clients written for the hosted API"); an agent reads back the name it was given. Retired
 * models are served by their successor: gpt-4-32k by gpt-4-turbo (the longer context), the Claude 3 and
 * 3.5 models by the current model of their family. Names with no first-party vendor (Mixtral) go by tier.
 */
export const HOSTED_MODELS: Readonly<Record<string, HostedModel>> = Object.freeze({
  gpt_3_5_turbo: { tier: 'llm_b_mini', openai: 'gpt-3.5-turbo' },
  gpt_3_5_turbo_16k: { tier: 'llm_b_mini', openai: 'gpt-3.5-turbo' },
  gpt_4: { tier: 'llm_a', openai: 'gpt-4' },
  gpt_4_32k: { tier: 'llm_a', openai: 'gpt-4-turbo' },
  gpt_4_turbo: { tier: 'llm_a', openai: 'gpt-4-turbo' },
  gpt_4_turbo_vision: { tier: 'llm_a', openai: 'gpt-4-turbo' },
  gpt_4o: { tier: 'llm_a', openai: 'gpt-4o' },
  gpt_4o_mini: { tier: 'llm_b_mini', openai: 'gpt-4o-mini' },
  claude_3_haiku: { tier: 'llm_b_mini', anthropic: 'claude-haiku-4-5' },
  claude_3_sonnet: { tier: 'llm_a', anthropic: 'claude-sonnet-4-5' },
  claude_3_5_sonnet: { tier: 'llm_a', anthropic: 'claude-sonnet-4-5' },
  claude_3_opus: { tier: 'llm_b', anthropic: 'claude-opus-4-5' },
  mixtral_8x7b: { tier: 'llm_b_mini' },
  mixtral_8x22b: { tier: 'llm_a' },
  dolphin_mixtral_8x7b: { tier: 'llm_b_mini' },
});
