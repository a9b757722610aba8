import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHANNEL_INPUTS } from '../../domain/channels.js';
import type { ConversationDetails, ConversationView } from '../../domain/conversation-view.js';
import { CONVERSATION_STATUSES, type ConversationService } from '../../domain/conversations.js';
import { contactName } from '../../domain/conversation-export.js';
import type { AgentRecord, ConversationRecord, MessageRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, Nullable, StringEnum, Timestamp, errorResponses } from '../schemas.js';
import { Message, toMessage } from './messages.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });

export const Status = StringEnum(CONVERSATION_STATUSES, {
  description: 'UNRESOLVED (open), RESOLVED, or HUMAN_REQUESTED (waiting for a person)',
});

const Channel = StringEnum(CHANNEL_INPUTS, { description: 'Where the conversation takes place; `email` is read as `mail`' });

const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

const Metadata = Type.Object(
  { isFormSubmitted: Type.Boolean({ description: 'Whether the visitor submitted the agent’s form; false unless set' }) },
  { additionalProperties: true, description: 'Free-form data attached to the conversation' },
);

const AgentRef = Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()) });

/** The detail record (spec §2 Conversation). */
const Conversation = Type.Object({
  id: Type.String(),
  title: Type.String({ description: 'The first words of the first message; empty until someone writes' }),
  status: Status,
  channel: Type.String(),
  isAiEnabled: Type.Boolean({ description: 'False once a person took over: the agent no longer answers' }),
  metadata: Metadata,
  createdAt: Timestamp('When the conversation started'),
  updatedAt: Timestamp('Last message or change'),
  agent: Nullable(AgentRef),
  messages: Type.Array(Message, { description: 'All messages, oldest first' }),
  participants: Type.Array(
    Type.Object({ id: Type.String(), type: StringEnum(['user', 'visitor', 'contact']) }),
    { description: 'Everyone taking part: workspace members (user), visitors and contacts' },
  ),
  participantsUsers: Type.Array(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
  participantsVisitors: Type.Array(
    Type.Object({
      id: Type.String(),
      contact: Nullable(
        Type.Object({ id: Type.String(), firstName: Nullable(Type.String()), lastName: Nullable(Type.String()) }),
      ),
    }),
  ),
  participantsContacts: Type.Array(
    Type.Object({
      id: Type.String(),
      firstName: Nullable(Type.String()),
      lastName: Nullable(Type.String()),
      email: Nullable(Type.String()),
    }),
  ),
});

const PatchParams = Type.Object({ conversationId: Id });

const PatchBody = Type.Object(
  {
    isAiEnabled: Type.Optional(Type.Boolean({ description: 'false switches the agent off: a person answers from now on' })),
    status: Type.Optional(Status),
    metadata: Type.Optional(JsonObject('Merged into the stored metadata (top-level keys replaced)')),
  },
  { description: 'What to change; fields left out stay as they are' },
);

/** The PATCH answer, shaped as the spec shows it. */
const PatchedConversation = Type.Object({
  id: Type.String(),
  status: Status,
  isAiEnabled: Type.Boolean(),
  channel: Type.String(),
  agent: Nullable(AgentRef),
  lead: Nullable(
    Type.Object(
      { id: Type.String(), email: Nullable(Type.String()), phoneNumber: Nullable(Type.String()) },
      { description: 'The contact of the conversation' },
    ),
  ),
  metadata: Metadata,
  messages: Type.Array(
    Type.Composite([Message, Type.Object({ conversationId: Type.String() })]),
    { description: 'All messages, oldest first, including the notice left when the agent was switched off' },
  ),
  workspace: Type.Object({
    id: Type.String(),
    organization: Type.Object({
      memberships: Type.Array(Type.Object({ user: Type.Object({ email: Type.String() }) }), {
        description: 'Members to notify; none until workspaces have members',
      }),
    }),
  }),
  createdAt: Timestamp('When the conversation started'),
  updatedAt: Timestamp('This change'),
});

const UpdateStatusQuery = Type.Object({
  channel: Type.Optional(Channel),
  agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations with this agent' })),
});

const DateBound = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description });

const ListQuery = Type.Object({
  agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations with this agent' })),
  channel: Type.Optional(Channel),
  channelExternalId: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The channel’s own id' })),
  search: Type.Optional(
    Type.String({ maxLength: 500, description: 'Case-insensitive text in the title, the contact’s name, e-mail or phone, or any message' }),
  ),
  startDate: Type.Optional(DateBound('Conversations created from then on (a date means from its start, UTC)')),
  endDate: Type.Optional(DateBound('Conversations created up to then (a date means to its end, UTC)')),
  fullConversation: Type.Boolean({ default: false, description: 'true: every message; false: the latest one only' }),
  simplified: Type.Boolean({ default: false, description: 'Only id, title, status, channel, agent {id, name} and updatedAt' }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Conversations per page' }),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: 'From the X-Next-Cursor header of the previous page' }),
  ),
});

const ListedMessage = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: Message.properties.from,
  createdAt: Timestamp('When it was written'),
  read: Type.Boolean(),
  attachments: Message.properties.attachments,
});

/** A list record (spec §2 Conversation list record). */
const ListedConversation = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: Status,
  channel: Type.String(),
  channelExternalId: Nullable(Type.String()),
  agent: Nullable(
    Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()), handle: Nullable(Type.String()) }),
  ),
  contactInfo: Nullable(
    Type.Object({ phoneNumber: Nullable(Type.String()), name: Nullable(Type.String()), email: Nullable(Type.String()) }),
  ),
  messages: Type.Array(ListedMessage, { description: 'The latest message, or all of them with fullConversation=true' }),
  createdAt: Timestamp('When the conversation started'),
  updatedAt: Timestamp('Last message or change'),
});

const SimplifiedConversation = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    status: Status,
    channel: Type.String(),
    agent: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
    updatedAt: Timestamp('Last message or change'),
  },
  { description: 'With simplified=true' },
);

const ExportQuery = Type.Object({
  format: Type.Optional(StringEnum(['json', 'html'], { description: 'json (the default) or html' })),
});

const TranscriptMessage = Type.Object({
  id: Type.String(),
  from: Message.properties.from,
  text: Type.String(),
  timestamp: Timestamp('When it was written'),
  formattedTimestamp: Type.String({ description: 'For people, in UTC, e.g. "25 Nov 2026, 14:03 UTC"' }),
  senderName: Type.String({ description: 'The agent’s name, the contact’s name or "Visitor", or "System"' }),
  attachments: Message.properties.attachments,
});

const Transcript = Type.Object({
  id: Type.String(),
  title: Type.String(),
  contactName: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  channel: Type.String(),
  agentName: Nullable(Type.String()),
  createdAt: Timestamp('When the conversation started'),
  messages: Type.Array(TranscriptMessage),
});

const metadataOf = (conversation: ConversationRecord): Static<typeof Metadata> => ({
  isFormSubmitted: false,
  ...conversation.metadata,
});

const agentRef = (agent: AgentRecord | null): Static<typeof AgentRef> | null =>
  agent && { id: agent.id, name: agent.name, iconUrl: agent.iconUrl };

const toConversation = ({ conversation, agent, contact, messages, visitors }: ConversationDetails): Static<typeof Conversation> => ({
  id: conversation.id,
  title: conversation.title,
  status: conversation.status,
  channel: conversation.channel,
  isAiEnabled: conversation.isAiEnabled,
  metadata: metadataOf(conversation),
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
  agent: agentRef(agent),
  messages: messages.map(toMessage),
  participants: [
    ...visitors.map(({ visitor }) => ({ id: visitor.id, type: 'visitor' as const })),
    ...(contact === null ? [] : [{ id: contact.id, type: 'contact' as const }]),
  ],
  // Workspaces have no members yet, so no user takes part.
  participantsUsers: [],
  participantsVisitors: visitors.map(({ visitor, contact: known }) => ({
    id: visitor.id,
    contact: known && { id: known.id, firstName: known.firstName, lastName: known.lastName },
  })),
  participantsContacts:
    contact === null ? [] : [{ id: contact.id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email }],
});

const toPatched = ({ conversation, agent, contact, messages }: ConversationView): Static<typeof PatchedConversation> => ({
  id: conversation.id,
  status: conversation.status,
  isAiEnabled: conversation.isAiEnabled,
  channel: conversation.channel,
  agent: agentRef(agent),
  lead: contact && { id: contact.id, email: contact.email, phoneNumber: contact.phoneNumber },
  metadata: metadataOf(conversation),
  messages: messages.map((message) => ({ ...toMessage(message), conversationId: message.conversationId })),
  workspace: { id: conversation.workspaceId, organization: { memberships: [] } },
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
});

const toListedMessage = (message: MessageRecord): Static<typeof ListedMessage> => ({
  id: message.id,
  text: message.text,
  from: message.from,
  createdAt: message.createdAt,
  read: message.read,
  attachments: message.attachments,
});

const toListed = ({ conversation, agent, contact, messages }: ConversationView): Static<typeof ListedConversation> => ({
  id: conversation.id,
  title: conversation.title,
  status: conversation.status,
  channel: conversation.channel,
  channelExternalId: conversation.channelExternalId,
  agent: agent && { id: agent.id, name: agent.name, iconUrl: agent.iconUrl, handle: agent.handle },
  contactInfo: contact && { phoneNumber: contact.phoneNumber, name: contactName(contact), email: contact.email },
  messages: messages.map(toListedMessage),
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
});

const toSimplified = ({ conversation, agent }: ConversationView): Static<typeof SimplifiedConversation> => ({
  id: conversation.id,
  title: conversation.title,
  status: conversation.status,
  channel: conversation.channel,
  agent: agent && { id: agent.id, name: agent.name },
  updatedAt: conversation.updatedAt,
});

/** The URL of the next page: this request's, with the cursor replaced. */
function nextPageLink(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://parley.invalid');
  url.searchParams.set('cursor', cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}

export const conversationRoutes: FastifyPluginAsyncTypebox<{ conversations: ConversationService }> = async (
  app,
  { conversations },
) => {
  const tags = ['conversations'];

  app.get(
    '/conversations/:id',
    {
      schema: {
        tags,
        summary: 'Get a conversation with all its messages (oldest first) and participants',
        params: IdParams,
        response: { 200: Conversation, ...errorResponses() },
      },
    },
    async (request) => toConversation(await conversations.get(workspaceOf(request), request.params.id)),
  );

  app.patch(
    '/conversations/:conversationId',
    {
      schema: {
        tags,
        summary: 'Switch the agent off (a person answers), set the status or add metadata',
        description:
          'Switching the agent off adds a system message. A new status RESOLVED or HUMAN_REQUESTED emits ' +
          '`conversation-resolved` or `human-requested`.',
        params: PatchParams,
        body: PatchBody,
        response: { 200: PatchedConversation, ...errorResponses(413, 415) },
      },
    },
    async (request) => toPatched(await conversations.patch(workspaceOf(request), request.params.conversationId, request.body)),
  );

  app.post(
    '/conversations/update-status',
    {
      schema: {
        tags,
        summary: 'Set the status of every workspace conversation matching the filters (all without one)',
        description: 'Irreversible. Emits no per-conversation events: use PATCH on one conversation for notifications.',
        querystring: UpdateStatusQuery,
        body: Type.Object({ status: Status }),
        response: {
          200: Type.Object({
            count: Type.Integer({ description: 'How many conversations matched and now have the status' }),
            message: Type.String(),
          }),
          ...errorResponses(413, 415),
        },
      },
    },
    async (request) => conversations.updateStatus(workspaceOf(request), request.query, request.body.status),
  );

  app.get(
    '/user-conversations',
    {
      schema: {
        tags,
        summary: 'List the workspace’s conversations, most recently active first',
        description:
          'Paged: when more follow, the X-Next-Cursor header holds the cursor of the next page and a ' +
          'Link header (rel="next") its URL.',
        querystring: ListQuery,
        response: {
          200: Type.Array(Type.Union([ListedConversation, SimplifiedConversation]), {
            description: 'List records; simplified ones with simplified=true',
          }),
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
        reply.header('x-next-cursor', page.nextCursor).header('link', nextPageLink(request.url, page.nextCursor));
      }
      return page.items.map(simplified ? toSimplified : toListed);
    },
  );

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
              'text/html': { schema: Type.String({ description: 'A standalone HTML page' }) },
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
