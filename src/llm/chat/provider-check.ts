import type { ProviderModelSettings } from './model-registry.js';

/**
 * What one small call to a provider showed. `ok`: it answered its model list with the key. Otherwise why
 * not, in our words (a provider's own text can echo the key or name internal hosts, so it is never kept):
 * `unauthorized` (401/403: the key), `not_found` (404: the base URL is not an API root), `rate_limited` (429),
 * `unavailable` (5xx), `unreachable` (no connection), `timeout`, `unusable` (a 2xx that is not a model list),
 * `refused` (another 4xx).
 */
export type ProviderCheck =
  | { ok: true; models: string[] }
  | {
      ok: false;
      failure: 'unauthorized' | 'not_found' | 'rate_limited' | 'unavailable' | 'unreachable' | 'timeout' | 'unusable' | 'refused';
      status?: number;
    };

const VENDOR_ROOTS = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' } as const;
const ANTHROPIC_VERSION = '2023-06-01';
/** Model ids kept from the answer: enough to pick from, bounded whatever the server lists. */
const MAX_MODELS = 200;

/**
 * Asks the provider for its model list (`GET {baseURL}/models`): OpenAI, Anthropic, vLLM, Ollama and
 * llama.cpp's server all answer it, it costs no tokens, and it needs the key like a chat call does.
 */
export async function checkProvider(
  settings: Omit<ProviderModelSettings, 'model'>,
  { fetch: fetchVia = fetch, timeoutMs }: { fetch?: typeof fetch; timeoutMs: number },
): Promise<ProviderCheck> {
  const root = (settings.baseURL ?? (settings.provider === 'anthropic' ? VENDOR_ROOTS.anthropic : VENDOR_ROOTS.openai)).replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (settings.provider === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (settings.apiKey !== null) headers['x-api-key'] = settings.apiKey;
  } else if (settings.apiKey !== null) {
    headers.authorization = `Bearer ${settings.apiKey}`;
  }
  let response: Response;
  try {
    response = await fetchVia(`${root}/models`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { ok: false, failure: error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'unreachable' };
  }
  const { status } = response;
  if (!response.ok) {
    await response.body?.cancel();
    const failure =
      status === 401 || status === 403
        ? 'unauthorized'
        : status === 404
          ? 'not_found'
          : status === 429
            ? 'rate_limited'
            : status >= 500
              ? 'unavailable'
              : 'refused';
    return { ok: false, failure, status };
  }
  const body: unknown = await response.json().catch(() => undefined);
  const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined;
  if (!Array.isArray(data)) return { ok: false, failure: 'unusable', status };
  const ids = data.flatMap((entry: unknown) =>
    typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'string' ? [entry.id] : [],
  );
  return { ok: true, models: ids.slice(0, MAX_MODELS) };
}
