import type { ConversationKey } from '../store/store.js';
import { invalid } from '../errors.js';

/** The opaque cursor of the conversation list: the last row's (updatedAt, id), as base64url JSON. */
export const encodeCursor = (key: ConversationKey): string => Buffer.from(JSON.stringify([key.updatedAt, key.id])).toString('base64url');

export function decodeCursor(cursor: string): ConversationKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      const [updatedAt, id] = value as [string, string];
      return { updatedAt, id };
    }
  } catch {
    // Not JSON: refused below like any other cursor this API did not give out.
  }
  throw invalid('The cursor is not one this API gave out', [{ field: 'cursor', message: 'is not a valid cursor' }]);
}
