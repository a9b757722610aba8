import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ConversationService } from '../../domain/conversations.js';
import { workspaceCallerOf, workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import {
  Conversation,
  CountsQuery,
  EvalAnswerBody,
  EvalAnswerResult,
  ExportQuery,
  HistoryQuery,
  InboxCounts,
  ReadResult,
  ReplyBody,
  ListQuery,
  ConversationList,
  PatchBody,
  PatchParams,
  PatchedConversation,
  Transcript,
  TranscriptPage,
  UpdateStatusBody,
  UpdateStatusQuery,
  UpdateStatusResult,
} from './conversation-schemas.js';
import { nextPageLink, toConversation, toListed, toPatched, toSimplified } from './conversation-presenters.js';
import { Message, toMessage } from './messages.js';
import { Type } from '@sinclair/typebox';
import { senderOf } from '../../domain/conversation-view.js';
import { isWorkspaceCaller } from '../../domain/callers.js';
import type { VisitorConversationService } from '../../domain/visitor-conversations.js';
import type { MessageEval } from '../../store/store.js';
import { VisitorTranscript } from './visitor-conversation.js';


export interface ConversationRoutesOptions {
  conversations: ConversationService;
  /** The hosted widget reads and rates the visitor's own conversation on these routes, without a key. */
  visitors: VisitorConversationService;
}

export const conversationRoutes: FastifyPluginAsyncTypebox<ConversationRoutesOptions> = async (app, { conversations, visitors }) => {
  const tags = ['conversations'];

  app.get(
    '/conversations/:id',
    {
      config: { auth: 'optional', publicResource: 'conversation' },
      schema: {
        tags,
        summary: 'Get a conversation with its messages, newest first, and participants',
        description:
          'All messages, newest first; with `cursor` (a message id) the 50 written before that one. Without a key ' +
          '(the hosted chat widget’s history) only the caller’s own conversation with a public agent, proved by its ' +
          'visitor token or the `visitorId` it was started with, in the visitor’s view; anything else is 404.',
        params: IdParams,
        querystring: HistoryQuery,
        response: { 200: Type.Union([Conversation, VisitorTranscript]), ...errorResponses(429) },
      },
    },
    async (request) => {
      const { cursor, visitorId } = request.query;
      const { caller } = request;
      if (isWorkspaceCaller(caller)) return toConversation(await conversations.history(caller.workspaceId, request.params.id, cursor));
      return visitors.history(caller, request.params.id, visitorId, cursor, request.headers.origin);
    },
  );

  app.post(
    '/conversations/eval-answer',
    {
      config: { auth: 'optional', publicResource: 'conversation' },
      schema: {
        tags,
        summary: 'Rate an agent answer (the hosted chat widget’s rating)',
        description:
          'With a key, any message of the workspace. Without one, an agent answer of the caller’s own conversation ' +
          'with a public agent, proved by its visitor token or the `visitorId` it was started with; anything else is 404.',
        body: EvalAnswerBody,
        response: { 200: EvalAnswerResult, ...errorResponses(413, 415, 429) },
      },
    },
    async (request) => {
      const { messageId, visitorId } = request.body;
      const value = request.body.eval === null ? null : (request.body.eval.toUpperCase() as MessageEval);
      const { caller } = request;
      if (isWorkspaceCaller(caller)) await conversations.rateMessage(caller.workspaceId, messageId, value);
      else await visitors.rateAnswer(caller, messageId, visitorId || undefined, value, request.headers.origin);
      return { messageId, eval: value };
    },
  );

  app.patch(
    '/conversations/:conversationId',
    {
      schema: {
        tags,
        summary: 'Switch the agent off (a person answers), set the status or add metadata',
        description:
          'Switching the agent off adds a system message (naming the member, with a member token). Setting ' +
          'HUMAN_REQUESTED adds one telling the visitor a person will answer; the agent then stops answering unless ' +
          'it keeps answering until taken over (`keepAnsweringUntilTakenOver`). Switching the agent back on while ' +
          'HUMAN_REQUESTED sets the status to UNRESOLVED: the agent answers again. A new status RESOLVED or ' +
          'HUMAN_REQUESTED emits `conversation-resolved` or `human-requested`.',
        params: PatchParams,
        body: PatchBody,
        response: { 200: PatchedConversation, ...errorResponses(413, 415) },
      },
    },
    async (request) => {
      const caller = workspaceCallerOf(request);
      // A member switching the agent off is named to the visitor, as on their replies.
      const member = await conversations.callerMember(caller);
      return toPatched(await conversations.patch(caller.workspaceId, request.params.conversationId, request.body, member));
    },
  );

  app.post(
    '/conversations/update-status',
    {
      schema: {
        tags,
        summary: 'Set the status of every workspace conversation matching the filters (all without one)',
        description:
          'Irreversible. Takes the filters of GET /user-conversations. Each conversation that changes emits ' +
          '`conversation.updated`, not the notifying events: use PATCH on one conversation for notifications.',
        querystring: UpdateStatusQuery,
        body: UpdateStatusBody,
        response: {
          200: UpdateStatusResult,
          ...errorResponses(413, 415),
        },
      },
    },
    async (request) => conversations.updateStatus(workspaceOf(request), request.query, request.body.status),
  );

  app.post(
    '/conversations/:id/messages',
    {
      config: { fieldPaths: { memberId: 'body.memberId' } },
      schema: {
        tags,
        summary: 'Reply to the visitor as a member (a person)',
        description:
          'Stored as `from: "human"` with the member as `sender`. Takes the conversation over (the agent is ' +
          'switched off) unless `takeOver` is false, assigns it to the member when unassigned, and marks the ' +
          'visitor’s messages read.',
        params: IdParams,
        body: ReplyBody,
        response: { 201: Type.Composite([Message, Type.Object({ conversationId: Type.String() })]), ...errorResponses(413, 415) },
      },
    },
    async (request, reply) => {
      const { view, reply: message } = await conversations.reply(workspaceCallerOf(request), request.params.id, request.body);
      return reply.code(201).send({ ...toMessage(message, senderOf(message, view)), conversationId: message.conversationId });
    },
  );

  app.post(
    '/conversations/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark the visitor’s messages read for the members',
        description: 'Emits `conversation.updated` when some were unread.',
        params: IdParams,
        response: { 200: ReadResult, ...errorResponses() },
      },
    },
    async (request) => ({ marked: await conversations.markRead(workspaceOf(request), request.params.id), unreadCount: 0 }),
  );

  app.get(
    '/user-conversations/counts',
    {
      schema: {
        tags,
        summary: 'How many conversations each inbox tab holds, and how many of them are unread',
        description: 'Takes the filters of GET /user-conversations (status and assignee aside: the tabs set those).',
        querystring: CountsQuery,
        response: { 200: InboxCounts, ...errorResponses() },
      },
    },
    async (request) => {
      const { memberId, status: _status, open: _open, assigneeId: _assignee, unassigned: _unassigned, ...filter } = request.query;
      const caller = workspaceCallerOf(request);
      const member = await conversations.callerMember(caller, memberId);
      return conversations.inboxCounts(caller.workspaceId, filter, member?.id ?? null);
    },
  );

  // Activepieces tests a key with GET /conversations: the same list under the name REST would give it.
  for (const [url, summary] of [
    ['/user-conversations', 'List the workspace’s conversations, most recently active first'],
    ['/conversations', 'The same list as GET /user-conversations'],
  ] as const) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary,
          description:
            'Paged: when more follow, the X-Next-Cursor header holds the cursor of the next page and a ' +
            'Link header (rel="next") its URL.',
          querystring: ListQuery,
          response: {
            200: ConversationList,
            ...errorResponses(),
          },
        },
      },
      async (request, reply) => {
        const { fullConversation, simplified, ...query } = request.query;
        const page = await conversations.list(workspaceOf(request), {
          ...query,
          messages: simplified ? 'none' : fullConversation ? 'all' : 'latest',
        });
        if (page.nextCursor !== null) {
          reply.header('x-next-cursor', page.nextCursor).header('link', nextPageLink(request.originalUrl, page.nextCursor));
        }
        return page.items.map(simplified ? toSimplified : toListed);
      },
    );
  }

  app.get(
    '/user-conversations/export/:id',
    {
      schema: {
        tags,
        summary: 'Export a conversation as JSON or as a printable HTML page',
        params: IdParams,
        querystring: ExportQuery,
        produces: ['application/json', 'text/html'],
        response: {
          200: {
            description: 'The transcript: JSON (format=json) or a standalone HTML page (format=html)',
            content: {
              'application/json': { schema: Transcript },
              'text/html': { schema: TranscriptPage },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const exported = await conversations.export(workspaceOf(request), request.params.id, request.query.format ?? 'json');
      if (exported.format === 'json') return exported.transcript;
      return reply.type('text/html; charset=utf-8').send(exported.html);
    },
  );
};
