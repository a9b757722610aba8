import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './json-schema.js';

/** Saved replies (canned answers) as the API takes and answers them; members insert one by typing `/shortcut`. */

export const SHORTCUT_MAX = 40;
export const SAVED_REPLY_TEXT_MAX = 5_000;
export const SAVED_REPLY_TITLE_MAX = 200;

export const Shortcut = Type.String({
  minLength: 1,
  maxLength: SHORTCUT_MAX,
  pattern: '^[a-z0-9-]+$',
  description: 'What a member types after `/` in the reply box: a-z, 0-9 and -, unique in the workspace',
});

export const SavedReply = Type.Object({
  id: Type.String(),
  shortcut: Type.String(),
  title: Type.String(),
  text: Type.String({ description: 'Inserted in the reply box as it is (plain text)' }),
  createdAt: Timestamp('When it was saved'),
  updatedAt: Timestamp('Last change'),
});

export const NewSavedReply = Type.Object({
  shortcut: Shortcut,
  title: Type.String({ minLength: 1, maxLength: SAVED_REPLY_TITLE_MAX, pattern: '\\S' }),
  text: Type.String({ minLength: 1, maxLength: SAVED_REPLY_TEXT_MAX, pattern: '\\S' }),
});

export const SavedReplyChanges = Type.Partial(NewSavedReply, { minProperties: 1, description: 'What to change; fields left out stay' });

export type SavedReplyBody = Static<typeof SavedReply>;
export type NewSavedReplyBody = Static<typeof NewSavedReply>;
export type SavedReplyChangesBody = Static<typeof SavedReplyChanges>;
