import { Type } from '@sinclair/typebox';
import { LIST_LIMIT } from '../../domain/conversation-list.js';
import { ConversationSelection } from '../../contract/conversation-selection.js';
import { Nullable, StringEnum } from '../schemas.js';

/** The conversation routes' request shapes beside the contract's (src/contract/conversations.ts, conversation-selection.ts). */
export const Id = Type.String({ minLength: 1, maxLength: 200 });

const VisitorIdProof = Type.String({
  maxLength: 128,
  description: 'Without a key: the visitorId the conversation was started with (the hosted widget keeps no visitor token)',
});

export const HistoryQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'A message id: the page of messages written before it; empty: none' })),
  visitorId: Type.Optional(VisitorIdProof),
});

export const EvalAnswerBody = Type.Object({
  messageId: Id,
  eval: Nullable(StringEnum(['good', 'bad', 'GOOD', 'BAD'], { description: 'Either case; null clears the rating' })),
  visitorId: Type.Optional(Nullable(VisitorIdProof)),
});

export const PatchParams = Type.Object({ conversationId: Id });

export const AttachmentParams = Type.Object({ conversationId: Id, messageId: Id, attachmentId: Id });

/** Sent as a Buffer; documented as binary. */
export const AttachmentFile = Type.Unsafe<Buffer>(Type.String({ format: 'binary', description: 'The file’s bytes, as the sender attached them' }));

export const CountsQuery = Type.Object({
  ...ConversationSelection.properties,
  memberId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With an API key: whose conversations "mine" counts' })),
});

export const ListQuery = Type.Object({
  ...ConversationSelection.properties,
  fullConversation: Type.Boolean({ default: false, description: 'true: every message; false: the latest one only' }),
  simplified: Type.Boolean({ default: false, description: 'Only id, title, status, channel, agent {id, name} and updatedAt' }),
  limit: Type.Integer({ minimum: 1, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default, description: 'Conversations per page' }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'From the X-Next-Cursor header of the previous page' })),
});

export const ExportQuery = Type.Object({
  format: Type.Optional(StringEnum(['json', 'html'], { description: 'json (the default) or html' })),
});

export const TranscriptPage = Type.String({ description: 'A standalone HTML page' });
