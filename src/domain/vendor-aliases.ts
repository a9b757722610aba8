/**
 * The hosted service's own values where the spec writes neutral stand-ins (README, "Clients written for the
 * hosted API"): clients written for it send them, so they are accepted as aliases and read as the spec's value,
 * which records answer with. The aliases are part of the API (src/contract/channels.ts, datastores.ts); model
 * names are the registry's concern (llm/chat/model-names.ts).
 */

/** The spec's value `value` stands for: its alias's target, or itself. */
export function unalias<Aliases extends Readonly<Record<string, string>>, T extends string>(
  aliases: Aliases,
  value: T | keyof Aliases,
): T | Aliases[keyof Aliases] {
  return Object.hasOwn(aliases, value) ? aliases[value as keyof Aliases] : (value as T);
}
