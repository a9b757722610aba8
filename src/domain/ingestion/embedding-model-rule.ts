import type { ModelDecision } from '../../store/store.js';

/**
 * A datastore's vectors compare only when one model made them all: the first model that indexes into it
 * becomes its model, and content embedded by another is refused (the datastore is re-embedded instead).
 */
export function firstModelWins(adopted: string | null, offered: string): ModelDecision {
  if (adopted === null) return 'adopt';
  return adopted === offered ? 'keep' : 'refuse';
}
