import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ConversationService } from '../../domain/conversations.js';
import type { MessageSender } from '../../domain/conversation-view.js';
import type { MessageRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';

const Eval = Nullable(StringEnum(['GOOD', 'BAD'], { description: 'How good the answer was; null when unrated' }));

export const Sender = Nullable(
  Type.Object({
    type: StringEnum(['user', 'visitor', 'agent'], { description: 'user: a workspace member; visitor: the customer; agent: the AI' }),
    id: Nullable(Type.String({ description: 'The member, visitor or agent id' })),
    name: Nullable(Type.String()),
  }),
  { description: 'Who wrote it (`from` alone tells no member from the visitor: both are human); null for system notices' },
);

/** A message as the conversation records show it (spec §2 Message, plus its sender). */
export const Message = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: StringEnum(['human', 'agent', 'system'], { description: 'human: the visitor; agent: the AI; system: notices' }),
  createdAt: Timestamp('When it was written'),
  read: Type.Boolean(),
  eval: Eval,
  attachments: Type.Array(Type.Object({}, { additionalProperties: true })),
  sources: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'What an agent answer drew from' }),
  sender: Sender,
  interrupted: Type.Optional(
    Type.Literal(true, {
      description:
        'An agent answer that stopped before its end (the caller left, the model failed, the server stopped) or is ' +
        'still being written: the text is what had been written; absent otherwise',
    }),
  ),
});

export const toMessage = (message: MessageRecord, sender: MessageSender | null): Static<typeof Message> => ({
  id: message.id,
  text: message.text,
  from: message.from,
  createdAt: message.createdAt,
  read: message.read,
  eval: message.eval,
  attachments: message.attachments,
  sources: message.sources,
  sender,
  ...(message.interrupted ? { interrupted: true } : {}),
});

const RatedMessage = Type.Composite([Message, Type.Object({ conversationId: Type.String() })]);

export type MessageBody = Static<typeof Message>;
export type RatedMessageBody = Static<typeof RatedMessage>;

export const messageRoutes: FastifyPluginAsyncTypebox<{ conversations: ConversationService }> = async (app, { conversations }) => {
  app.post(
    '/messages/:id/eval',
    {
      schema: {
        tags: ['conversations'],
        summary: 'Rate an agent’s answer GOOD or BAD, or clear the rating with null',
        params: IdParams,
        body: Type.Object({ eval: Eval }),
        response: { 200: RatedMessage, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const message = await conversations.rateMessage(workspaceOf(request), request.params.id, request.body.eval);
      const sender = await conversations.senderOf(workspaceOf(request), message);
      return { ...toMessage(message, sender), conversationId: message.conversationId };
    },
  );
};
