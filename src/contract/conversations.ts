import { DELIVERY_STATES } from './channel-connections.js';
import { Type, type Static } from '@sinclair/typebox';
import type { AnswerSourceBody } from './answers.js';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';
import { LabelRef } from './labels.js';

/** The conversation routes' response shapes and the bodies the dashboard sends (the OpenAPI document is generated from them). */

export const CONVERSATION_STATUSES = ['UNRESOLVED', 'RESOLVED', 'HUMAN_REQUESTED'] as const;

export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

export const Status = StringEnum(CONVERSATION_STATUSES, {
  description: 'UNRESOLVED (open), RESOLVED, or HUMAN_REQUESTED (waiting for a person)',
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

export const Eval = Nullable(StringEnum(['GOOD', 'BAD'], { description: 'How good the answer was; null when unrated' }));

export const Sender = Nullable(
  Type.Object({
    type: StringEnum(['user', 'visitor', 'agent'], { description: 'user: a workspace member; visitor: the customer; agent: the AI' }),
    id: Nullable(Type.String({ description: 'The member, visitor or agent id' })),
    name: Nullable(Type.String()),
  }),
  { description: 'Who wrote it (`from` alone tells no member from the visitor: both are human); null for system notices' },
);

/** A file kept with a message (an e-mail's attachment): download it from `…/messages/{messageId}/attachments/{id}`. */
export const KeptAttachment = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'The file name the sender gave' }),
    mimeType: Type.String({ description: 'The type the sender declared' }),
    size: Type.Integer({ minimum: 0, description: 'Bytes' }),
  },
  { additionalProperties: false },
);

/** A file that came with a message but was larger than PARLEY_CHANNEL_ATTACHMENT_MAX_MB: named, not kept. */
export const DroppedAttachment = Type.Object(
  { name: Type.String(), dropped: Type.Literal(true, { description: 'Too large to keep: only its name is known' }) },
  { additionalProperties: false },
);

/** One entry of a message's `attachments`; older messages may hold entries of their own shape (imported history). */
export const MessageAttachment = Type.Union([KeptAttachment, DroppedAttachment, Type.Object({}, { additionalProperties: true })], {
  description: 'A kept file (id, name, mimeType, size), a dropped one (name, dropped), or an imported entry as it was recorded',
});

export type KeptAttachmentBody = Static<typeof KeptAttachment>;
export type DroppedAttachmentBody = Static<typeof DroppedAttachment>;

/** A message as the conversation records show it, with its sender. */
export const Message = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: StringEnum(['human', 'agent', 'system'], { description: 'human: the visitor; agent: the AI; system: notices' }),
  createdAt: Timestamp('When it was written'),
  read: Type.Boolean(),
  eval: Eval,
  attachments: Type.Array(MessageAttachment, { description: 'Files that came with it' }),
  // Typed as the answer's sources; the schema stays open, as stored sources were always sent whole.
  sources: Type.Array(Type.Unsafe<AnswerSourceBody>(Type.Object({}, { additionalProperties: true })), {
    description: 'What an agent answer drew from',
  }),
  sender: Sender,
  interrupted: Type.Optional(
    Type.Literal(true, {
      description:
        'An agent answer that stopped before its end (the caller left, the model failed, the server stopped) or is ' +
        'still being written: the text is what had been written; absent otherwise',
    }),
  ),
  delivery: Type.Optional(
    Type.Object(
      {
        state: StringEnum(DELIVERY_STATES, {
          description: 'pending: being sent, or retried with backoff; sent: the vendor took it; failed: given up',
        }),
        error: Nullable(Type.String({ description: 'Why it has not gone out, in Parley’s words' })),
      },
      { description: 'How a message sent out through the conversation’s channel (e-mail, a messenger) fared; absent for the rest' },
    ),
  ),
  private: Type.Optional(
    Type.Literal(true, {
      description: 'A member’s private note: only members see it (never the visitor, a channel or an answer); absent otherwise',
    }),
  ),
});

export const RatedMessage = Type.Composite([Message, Type.Object({ conversationId: Type.String() })]);

const Title = Type.String({
  description: 'The visitor’s first message (its first 80 characters, … when cut); empty until the visitor writes',
});

export const Labels = Type.Array(LabelRef, { description: 'The labels on it, by name' });

/** What the widget told of the page the conversation started on (see the agent query's `context`). */
export const VisitorContext = Type.Object({
  pageUrl: Nullable(Type.String({ description: 'An http(s) URL' })),
  referrer: Nullable(Type.String({ description: 'An http(s) URL' })),
  language: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
});

/** A conversation as `GET /conversations/{id}` answers it: the detail record. */
export const Conversation = Type.Object({
  id: Type.String(),
  title: Title,
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
  participants: Type.Array(Type.Object({ id: Type.String(), type: StringEnum(['user', 'visitor', 'contact']) }), {
    description: 'Everyone taking part: workspace members (user), visitors and contacts',
  }),
  participantsUsers: Type.Array(Type.Object({ id: Type.String(), name: Nullable(Type.String()) })),
  participantsVisitors: Type.Array(
    Type.Object({
      id: Type.String(),
      contact: Nullable(Type.Object({ id: Type.String(), firstName: Nullable(Type.String()), lastName: Nullable(Type.String()) })),
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
  labels: Labels,
  visitorContext: Nullable(VisitorContext, { description: 'What the chat widget told of the visitor’s page; null when nothing was told' }),
  visitorConversations: Type.Integer({
    minimum: 0,
    description: 'How many other conversations its visitor started in the workspace (more than 0: a returning visitor)',
  }),
});

export const EvalAnswerResult = Type.Object({ messageId: Type.String(), eval: Nullable(StringEnum(['GOOD', 'BAD'])) });

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
  messages: Type.Array(Type.Composite([Message, Type.Object({ conversationId: Type.String() })]), {
    description: 'All messages, oldest first, including the notice left when the agent was switched off',
  }),
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

export const NoteBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S', description: 'What the member notes for the team' }),
  memberId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With an API key: the member who writes' })),
});

export const ReplyBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 20_000, description: 'What the member says to the visitor' }),
  takeOver: Type.Boolean({ default: true, description: 'Switch the agent off for this conversation (the default)' }),
  memberId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'With an API key: the member who writes' })),
});

export const ReadResult = Type.Object({
  marked: Type.Integer({ minimum: 0, description: 'Messages marked read now' }),
  unreadCount: UnreadCount,
});

export const ListedMessage = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: Message.properties.from,
  sender: Sender,
  createdAt: Timestamp('When it was written'),
  read: Type.Boolean(),
  attachments: Message.properties.attachments,
  private: Message.properties.private,
});

/** A conversation as `GET /conversations` lists it. */
export const ListedConversation = Type.Object({
  id: Type.String(),
  title: Title,
  status: Status,
  channel: Type.String(),
  channelExternalId: Nullable(Type.String()),
  agent: Nullable(Type.Object({ id: Type.String(), name: Type.String(), iconUrl: Nullable(Type.String()), handle: Nullable(Type.String()) })),
  contactInfo: Nullable(Type.Object({ phoneNumber: Nullable(Type.String()), name: Nullable(Type.String()), email: Nullable(Type.String()) })),
  isAiEnabled: Type.Boolean({ description: 'False once a person took over' }),
  playground: Type.Boolean({ description: 'Started by a member in the dashboard’s playground: the team’s own test (listed with includePlayground)' }),
  assignee: Assignee,
  unreadCount: UnreadCount,
  messages: Type.Array(ListedMessage, { description: 'The latest message, or all of them with fullConversation=true' }),
  labels: Labels,
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

export type MessageBody = Static<typeof Message>;
export type RatedMessageBody = Static<typeof RatedMessage>;

export type ConversationBody = Static<typeof Conversation>;
export type PatchedConversationBody = Static<typeof PatchedConversation>;
export type ListedConversationBody = Static<typeof ListedConversation>;
export type SimplifiedConversationBody = Static<typeof SimplifiedConversation>;
export type TranscriptBody = Static<typeof Transcript>;
export type UpdateStatusResultBody = Static<typeof UpdateStatusResult>;
export type ConversationPatchBody = Static<typeof PatchBody>;
export type ReadResultBody = Static<typeof ReadResult>;
export type NoteRequestBody = Static<typeof NoteBody>;
export type VisitorContextBody = Static<typeof VisitorContext>;
export type MessageEval = Static<typeof Eval>;
