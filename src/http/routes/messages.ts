import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ConversationUseCases } from '../../domain/conversations/conversation-use-cases.js';
import type { MessageSender } from '../../domain/conversation-view.js';
import type { MessageRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { toSourceBody } from './agent-query.js';
import { IdParams, errorResponses } from '../schemas.js';
import type { Message } from '../../contract/conversations.js';
import { Eval, RatedMessage } from '../../contract/conversations.js';

export const toMessage = (message: MessageRecord, sender: MessageSender | null): Static<typeof Message> => ({
  id: message.id,
  text: message.text,
  from: message.from,
  createdAt: message.createdAt,
  read: message.read,
  eval: message.eval,
  attachments: message.attachments,
  sources: message.sources.map(toSourceBody),
  sender,
  ...(message.interrupted ? { interrupted: true } : {}),
  ...(message.delivery === null ? {} : { delivery: message.delivery }),
  ...(message.private ? { private: true } : {}),
});

export const messageRoutes: FastifyPluginAsyncTypebox<{ conversations: ConversationUseCases }> = async (app, { conversations }) => {
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
      const message = await conversations.messages.rate(workspaceOf(request), request.params.id, request.body.eval);
      const sender = await conversations.views.senderOf(workspaceOf(request), message);
      return { ...toMessage(message, sender), conversationId: message.conversationId };
    },
  );
};
