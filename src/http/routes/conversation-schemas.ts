import { Type, type Static } from '@sinclair/typebox';
import { CHANNEL_INPUTS } from '../../domain/channels.js';
import { LIST_LIMIT } from '../../domain/conversation-list.js';
import { CONVERSATION_STATUSES } from '../../domain/conversations.js';
import { Nullable, StringEnum, Timestamp } from '../schemas.js';
import { Message, Sender } from './messages.js';

/** The conversation routes' request and response shapes (the OpenAPI document is generated from them). */
export const Id = Type.String({ minLength: 1, maxLength: 200 });

export const Status = StringEnum(CONVERSATION_STATUSES, {
  description: 'UNRESOLVED (open), RESOLVED, or HUMAN_REQUESTED (waiting for a person)',
});

export const Channel = StringEnum(CHANNEL_INPUTS, {
  description: 'Where the conversation takes place; the hosted service’s names are read as the spec’s (whatsapp as messenger_a, email as mail, …)',
});

export const JsonObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const Metadata = Type.Object(
  { isFormSubmitted: Type.Boolean({ description: 'Whether the visitor submitted the agent’s form; false unless set' }) },
  { additionalProperties: true, description: 'Free-form data attached to the conversation' },
);

export const AgentRef = Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()) });

export const Assignee = Nullable(
  Type.Object({ id: Type.String({ description: 'A member id' }), name: Nullable(Type.String({ description: 'Null once the member left' })) }),
  { description: 'The member handling it; null while unassigned' },
);

export const UnreadCount = Type.Integer({ minimum: 0, description: 'Visitor messages no member has read (POST /conversations/{id}/read)' });

/** The detail record (spec §2 Conversation). */
export const Conversation = Type.Object({
  id: Type.String(),
  title: Type.String({ description: 'The first words of the first message; empty until someone writes' }),
  status: Status,
  channel: Type.String(),
  channelExternalId: Nullable(Type.String({ description: 'The channel’s own id' })),
  isAiEnabled: Type.Boolean({ description: 'False once a person took over: the agent no longer answers' }),
  metadata: Metadata,
  createdAt: Timestamp('When the conversation started'),
  updatedAt: Timestamp('Last message or change'),
  agent: Nullable(AgentRef),
  assignee: Assignee,
  unreadCount: UnreadCount,
  messages: Type.Array(Message, { description: 'Newest first: all, or the page before `cursor`' }),
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
      phoneNumber: Nullable(Type.String()),
    }),
  ),
});

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

export const EvalAnswerResult = Type.Object({ messageId: Type.String(), eval: Nullable(StringEnum(['GOOD', 'BAD'])) });

export const PatchParams = Type.Object({ conversationId: Id });

export const PatchBody = Type.Object(
  {
    isAiEnabled: Type.Optional(Type.Boolean({ description: 'false switches the agent off: a person answers from now on' })),
    status: Type.Optional(Status),
    assigneeId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }), { description: 'A member id; null unassigns' })),
    metadata: Type.Optional(JsonObject('Merged into the stored metadata (top-level keys replaced)')),
  },
  { description: 'What to change; fields left out stay as they are' },
);

/** The PATCH answer, shaped as the spec shows it. */
export const PatchedConversation = Type.Object({
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
  assignee: Assignee,
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

export const DateBound = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description });

/** What narrows a list of conversations; the inbox counts and bulk status changes take the same. */
const FilterFields = {
  agentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations with this agent' })),
  channel: Type.Optional(Channel),
  channelExternalId: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'The channel’s own id' })),
  status: Type.Optional(Status),
  open: Type.Optional(Type.Boolean({ description: 'true: only conversations not resolved (UNRESOLVED or HUMAN_REQUESTED)' })),
  assigneeId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations assigned to this member' })),
  unassigned: Type.Optional(Type.Boolean({ description: 'true: only conversations assigned to nobody' })),
  search: Type.Optional(
    Type.String({ maxLength: 500, description: 'Case-insensitive text in the title, the contact’s name, e-mail or phone, or any message' }),
  ),
  startDate: Type.Optional(DateBound('Conversations created from then on (a date means from its start, UTC)')),
  endDate: Type.Optional(DateBound('Conversations created up to then (a date means to its end, UTC)')),
  includePlayground: Type.Optional(
    Type.Boolean({
      description:
        'true: also the conversations members started in the dashboard’s playground (the team’s own tests), left out ' +
        'otherwise. Conversations started with an API key are never playground ones, whatever their channel.',
    }),
  ),
};

export const UpdateStatusQuery = Type.Object(FilterFields);

export const CountsQuery = Type.Object({
  ...FilterFields,
  memberId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With an API key: whose conversations "mine" counts' })),
});

const TabCount = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Conversations in the tab' }),
  unread: Type.Integer({ minimum: 0, description: 'Of them, those with visitor messages no member has read' }),
});

export const InboxCounts = Type.Object(
  {
    humanRequested: TabCount,
    unresolved: TabCount,
    mine: TabCount,
    unassigned: TabCount,
    all: TabCount,
  },
  {
    description:
      'humanRequested and unresolved: by status; mine (assigned to the caller) and unassigned: those not resolved; all: everything',
  },
);

export const ReplyBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 20_000, description: 'What the member says to the visitor' }),
  takeOver: Type.Boolean({ default: true, description: 'Switch the agent off for this conversation (the default)' }),
  memberId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With an API key: the member who writes' })),
});

export const ReadResult = Type.Object({
  marked: Type.Integer({ minimum: 0, description: 'Messages marked read now' }),
  unreadCount: UnreadCount,
});

export const ListQuery = Type.Object({
  ...FilterFields,
  fullConversation: Type.Boolean({ default: false, description: 'true: every message; false: the latest one only' }),
  simplified: Type.Boolean({ default: false, description: 'Only id, title, status, channel, agent {id, name} and updatedAt' }),
  limit: Type.Integer({ minimum: 1, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default, description: 'Conversations per page' }),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 500, description: 'From the X-Next-Cursor header of the previous page' }),
  ),
});

export const ListedMessage = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: Message.properties.from,
  sender: Sender,
  createdAt: Timestamp('When it was written'),
  read: Type.Boolean(),
  attachments: Message.properties.attachments,
});

/** A list record (spec §2 Conversation list record). */
export const ListedConversation = Type.Object({
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
  isAiEnabled: Type.Boolean({ description: 'False once a person took over' }),
  playground: Type.Boolean({ description: 'Started by a member in the dashboard’s playground: the team’s own test (listed with includePlayground)' }),
  assignee: Assignee,
  unreadCount: UnreadCount,
  messages: Type.Array(ListedMessage, { description: 'The latest message, or all of them with fullConversation=true' }),
  createdAt: Timestamp('When the conversation started'),
  updatedAt: Timestamp('Last message or change'),
});

export const SimplifiedConversation = Type.Object(
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

export const ExportQuery = Type.Object({
  format: Type.Optional(StringEnum(['json', 'html'], { description: 'json (the default) or html' })),
});

/** An agent answer's sources as a reader is shown them. */
export const SourceLabels = Type.Array(Type.Object({ name: Type.String(), url: Nullable(Type.String()), pageNumber: Nullable(Type.Integer()) }), {
  description: 'An agent answer’s sources, as it cites them: the n-th is what its [n] cites',
});

export const TranscriptMessage = Type.Object({
  id: Type.String(),
  from: Message.properties.from,
  text: Type.String(),
  timestamp: Timestamp('When it was written'),
  formattedTimestamp: Type.String({ description: 'For people, in UTC, e.g. "25 Nov 2026, 14:03 UTC"' }),
  senderName: Type.String({ description: 'The agent’s, member’s or contact’s name; "Visitor" or "System" without one' }),
  attachments: Message.properties.attachments,
  sources: SourceLabels,
});

export const Transcript = Type.Object({
  id: Type.String(),
  title: Type.String(),
  contactName: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  channel: Type.String(),
  agentName: Nullable(Type.String()),
  createdAt: Timestamp('When the conversation started'),
  messages: Type.Array(TranscriptMessage),
});

export const UpdateStatusBody = Type.Object({ status: Status });

export const UpdateStatusResult = Type.Object({
  count: Type.Integer({ description: 'How many conversations matched and now have the status' }),
  message: Type.String(),
});

export const ConversationList = Type.Array(Type.Union([ListedConversation, SimplifiedConversation]), {
  description: 'List records; simplified ones with simplified=true',
});

export const TranscriptPage = Type.String({ description: 'A standalone HTML page' });

export type ConversationBody = Static<typeof Conversation>;
export type PatchedConversationBody = Static<typeof PatchedConversation>;
export type ListedConversationBody = Static<typeof ListedConversation>;
export type SimplifiedConversationBody = Static<typeof SimplifiedConversation>;
export type TranscriptBody = Static<typeof Transcript>;
export type UpdateStatusResultBody = Static<typeof UpdateStatusResult>;
