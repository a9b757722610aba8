import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ConversationUseCases } from '../../domain/conversations/conversation-use-cases.js';
import { workspaceCallerOf, workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import {
  AttachmentFile,
  AttachmentParams,
  CountsQuery,
  EvalAnswerBody,
  ExportQuery,
  HistoryQuery,
  ListQuery,
  PatchParams,
  TranscriptPage,
} from './conversation-schemas.js';
import { attachmentHeaders } from './attachment-headers.js';
import { ConversationSelection } from '../../contract/conversation-selection.js';
import { InboxCounts } from '../../contract/inbox-tabs.js';
import {
  Conversation,
  ConversationList,
  EvalAnswerResult,
  Message,
  NoteBody,
  PatchBody,
  PatchedConversation,
  ReadResult,
  ReplyBody,
  Transcript,
  UpdateStatusBody,
  UpdateStatusResult,
} from '../../contract/conversations.js';
import { nextPageLink, toConversation, toLabelRef, toListed, toPatched, toSimplified } from './conversation-presenters.js';
import { BulkLabelsBody, BulkLabelsResult, ConversationLabelsBody, LabelRef } from '../../contract/labels.js';
import { Id } from '../schemas.js';
import { toMessage } from './messages.js';
import { Type } from '@sinclair/typebox';
import { senderOf } from '../../domain/conversation-view.js';
import { isWorkspaceCaller } from '../../domain/callers.js';
import type { VisitorConversationService } from '../../domain/visitor-conversations.js';
import type { MessageEval } from '../../store/store.js';
import { VisitorTranscript } from '../../contract/visitor-conversation.js';

export interface ConversationRoutesOptions {
  conversations: ConversationUseCases;
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
      if (isWorkspaceCaller(caller)) return toConversation(await conversations.views.history(caller.workspaceId, request.params.id, cursor));
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
      if (isWorkspaceCaller(caller)) await conversations.messages.rate(caller.workspaceId, messageId, value);
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
      const member = await conversations.members.callerMember(caller);
      return toPatched(await conversations.status.patch(caller.workspaceId, request.params.conversationId, request.body, member));
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
        querystring: ConversationSelection,
        body: UpdateStatusBody,
        response: {
          200: UpdateStatusResult,
          ...errorResponses(413, 415),
        },
      },
    },
    async (request) => conversations.status.updateMany(workspaceOf(request), request.query, request.body.status),
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
      const { view, reply: message } = await conversations.replies.reply(workspaceCallerOf(request), request.params.id, request.body);
      return reply.code(201).send({ ...toMessage(message, senderOf(message, view)), conversationId: message.conversationId });
    },
  );

  app.get(
    '/conversations/:conversationId/messages/:messageId/attachments/:attachmentId',
    {
      schema: {
        tags,
        summary: 'Download a file that came with a message (an e-mail’s attachment)',
        description:
          'Images, PDFs and plain text are served as their type; anything else as `application/octet-stream` with ' +
          '`Content-Disposition: attachment`, so a browser saves it instead of showing it. Always `X-Content-Type-Options: nosniff`.',
        params: AttachmentParams,
        produces: ['application/octet-stream'],
        response: {
          200: { description: 'The file', content: { 'application/octet-stream': { schema: AttachmentFile } } },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { conversationId, messageId, attachmentId } = request.params;
      const file = await conversations.attachments.open(workspaceOf(request), conversationId, messageId, attachmentId);
      return reply.headers(attachmentHeaders(file)).send(file.content);
    },
  );

  app.post(
    '/conversations/:id/notes',
    {
      config: { fieldPaths: { memberId: 'body.memberId' } },
      schema: {
        tags,
        summary: 'Write a private note for the team (a member’s; never shown to the visitor)',
        description:
          'Stored as a message with `private: true`, its writer as `sender`. The visitor never sees it (widget history, ' +
          'visitor routes, the answer stream), no channel sends it, webhooks and notification e-mails leave it out, ' +
          'and the agent does not read it. It is no reply: the status, the agent switch, the assignee and the unread ' +
          'count stay as they are. `message.created` (event stream) carries it with `private: true`.',
        params: IdParams,
        body: NoteBody,
        response: { 201: Type.Composite([Message, Type.Object({ conversationId: Type.String() })]), ...errorResponses(413, 415) },
      },
    },
    async (request, reply) => {
      const { view, note } = await conversations.replies.note(workspaceCallerOf(request), request.params.id, request.body);
      return reply.code(201).send({ ...toMessage(note, senderOf(note, view)), conversationId: note.conversationId });
    },
  );

  app.post(
    '/conversations/:id/labels',
    {
      schema: {
        tags,
        summary: 'Put labels on a conversation',
        description: 'Labels already on it stay once. Every id must be a label of the workspace. The answer: its labels.',
        params: IdParams,
        body: ConversationLabelsBody,
        response: { 200: Type.Array(LabelRef), ...errorResponses(413, 415) },
      },
    },
    async (request) => (await conversations.labels.add(workspaceOf(request), request.params.id, request.body.labelIds)).map(toLabelRef),
  );

  app.delete(
    '/conversations/:id/labels/:labelId',
    {
      schema: {
        tags,
        summary: 'Take a label off a conversation',
        description: 'The answer: its labels afterwards.',
        params: Type.Object({ id: Id, labelId: Id }),
        response: { 200: Type.Array(LabelRef), ...errorResponses() },
      },
    },
    async (request) => (await conversations.labels.remove(workspaceOf(request), request.params.id, request.params.labelId)).map(toLabelRef),
  );

  app.post(
    '/conversations/bulk-labels',
    {
      schema: {
        tags,
        summary: 'Put labels on and take labels off many conversations',
        description:
          'The inbox’s bulk bar. Every conversation and label must be the workspace’s (else nothing changes); `add` or `remove` must name one.',
        body: BulkLabelsBody,
        response: { 200: BulkLabelsResult, ...errorResponses(413, 415) },
      },
    },
    async (request) => conversations.labels.bulk(workspaceOf(request), request.body),
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
    async (request) => ({ marked: await conversations.inbox.markRead(workspaceOf(request), request.params.id), unreadCount: 0 }),
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
      const member = await conversations.members.callerMember(caller, memberId);
      return conversations.inbox.counts(caller.workspaceId, filter, member?.id ?? null);
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
            'Paged: when more follow, the X-Next-Cursor header holds the cursor of the next page and a ' + 'Link header (rel="next") its URL.',
          querystring: ListQuery,
          response: {
            200: ConversationList,
            ...errorResponses(),
          },
        },
      },
      async (request, reply) => {
        const { fullConversation, simplified, ...query } = request.query;
        const page = await conversations.inbox.list(workspaceOf(request), {
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
      const exported = await conversations.views.export(workspaceOf(request), request.params.id, request.query.format ?? 'json');
      if (exported.format === 'json') return exported.transcript;
      return reply.type('text/html; charset=utf-8').send(exported.html);
    },
  );
};
