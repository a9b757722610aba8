/**
 * The hosted service's own values where the spec writes neutral stand-ins (compat-notes, "What real clients
 * send"): clients written for it send them, so they are accepted as aliases and read as the spec's value,
 * which records answer with. Model names are the registry's concern (llm/chat/model-names.ts).
 */

/** Channel names clients send, by the spec's channel they mean (`email` is an older spelling of `mail`). */
export const CHANNEL_ALIASES = {
  whatsapp: 'messenger_a',
  telegram: 'messenger_b',
  slack: 'team_chat',
  crisp: 'helpdesk',
  zapier: 'automation',
  email: 'mail',
} as const;

/** Datastore types: `qdrant` is the only value of the hosted service's public OpenAPI document. */
export const DATASTORE_TYPE_ALIASES = {
  qdrant: 'vector_a',
  pinecone: 'vector_a',
} as const;

/** The spec's value `value` stands for: its alias's target, or itself. */
export function unalias<Aliases extends Readonly<Record<string, string>>, T extends string>(
  aliases: Aliases,
  value: T | keyof Aliases,
): T | Aliases[keyof Aliases] {
  return Object.hasOwn(aliases, value) ? aliases[value as keyof Aliases] : (value as T);
}
