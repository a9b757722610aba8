/**
 * Whether a parsed JSON value (a provider's answer, saved settings) is an object whose fields can be read:
 * not null, not an array.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
