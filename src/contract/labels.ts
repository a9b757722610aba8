import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './json-schema.js';
import { Id } from './shared-schemas.js';

/** Labels on conversations as the API takes and answers them. */

export const LABEL_NAME_MAX = 50;
/** Most labels one request puts on or takes off. */
export const LABELS_PER_REQUEST = 20;
/** Most conversations one bulk request labels. */
export const BULK_LABEL_CONVERSATIONS = 100;

const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'A colour as #rrggbb' });

export const Label = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.String({ description: 'A colour as #rrggbb' }),
  createdAt: Timestamp('When it was made'),
  updatedAt: Timestamp('Last change'),
});

/** A label as a conversation shows it. */
export const LabelRef = Type.Object({ id: Type.String(), name: Type.String(), color: Type.String() });

export const NewLabel = Type.Object({
  name: Type.String({ minLength: 1, maxLength: LABEL_NAME_MAX, pattern: '\\S', description: 'Unique in the workspace' }),
  color: Type.Optional(Color),
});

export const LabelChanges = Type.Object(
  { name: Type.Optional(NewLabel.properties.name), color: Type.Optional(Color) },
  { minProperties: 1, description: 'What to change; fields left out stay' },
);

const LabelIds = Type.Array(Id, { minItems: 1, maxItems: LABELS_PER_REQUEST, uniqueItems: true, description: 'Label ids of the workspace' });

export const ConversationLabelsBody = Type.Object({ labelIds: LabelIds });

export const BulkLabelsBody = Type.Object(
  {
    conversationIds: Type.Array(Id, { minItems: 1, maxItems: BULK_LABEL_CONVERSATIONS, uniqueItems: true }),
    add: Type.Optional(LabelIds),
    remove: Type.Optional(LabelIds),
  },
  { description: 'Puts the labels `add` on every conversation and takes `remove` off; at least one of them' },
);

export const BulkLabelsResult = Type.Object({
  added: Type.Integer({ minimum: 0, description: 'Labels newly put on (one per conversation and label)' }),
  removed: Type.Integer({ minimum: 0, description: 'Labels taken off' }),
});

export type LabelBody = Static<typeof Label>;
export type LabelRefBody = Static<typeof LabelRef>;
export type NewLabelBody = Static<typeof NewLabel>;
export type LabelChangesBody = Static<typeof LabelChanges>;
export type BulkLabelsRequest = Static<typeof BulkLabelsBody>;
export type BulkLabelsResultBody = Static<typeof BulkLabelsResult>;
