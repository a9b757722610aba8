import type { Static } from '@sinclair/typebox';
import { contactName, senderOf, type ConversationDetails, type ConversationView } from '../../domain/conversation-view.js';
import type { AgentRecord, ConversationRecord, LabelRecord, MessageRecord, VisitorContext as StoredVisitorContext } from '../../store/store.js';
import type {
  AgentRef,
  Conversation,
  ListedConversation,
  ListedMessage,
  Metadata,
  PatchedConversation,
  SimplifiedConversation,
  VisitorContext,
} from '../../contract/conversations.js';
import type { LabelRef } from '../../contract/labels.js';
import { toMessage } from './messages.js';

/** Records as the API shows them: the spec's conversation shapes, from the domain's views. */
export const metadataOf = (conversation: ConversationRecord): Static<typeof Metadata> => ({
  isFormSubmitted: false,
  ...conversation.metadata,
});

export const agentRef = (agent: AgentRecord | null): Static<typeof AgentRef> | null =>
  agent && { id: agent.id, name: agent.name, iconUrl: agent.iconUrl };

const assigneeOf = ({ conversation, members }: ConversationView): { id: string; name: string | null } | null => {
  const { assigneeId } = conversation;
  return assigneeId === null ? null : { id: assigneeId, name: members.find((member) => member.id === assigneeId)?.name ?? null };
};

export const toLabelRef = ({ id, name, color }: LabelRecord): Static<typeof LabelRef> => ({ id, name, color });

const toVisitorContext = (context: StoredVisitorContext | null): Static<typeof VisitorContext> | null =>
  context && {
    pageUrl: context.pageUrl ?? null,
    referrer: context.referrer ?? null,
    language: context.language ?? null,
    userAgent: context.userAgent ?? null,
  };

/** What the detail, PATCH and list shapes all show of a conversation: its id, state, assignee and times. */
const commonFieldsOf = (view: ConversationView) => {
  const { conversation } = view;
  return {
    id: conversation.id,
    status: conversation.status,
    channel: conversation.channel,
    isAiEnabled: conversation.isAiEnabled,
    assignee: assigneeOf(view),
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
  };
};

export const toConversation = (details: ConversationDetails): Static<typeof Conversation> => {
  const { conversation, agent, contact, messages, visitors } = details;
  const writers = [...new Set(messages.flatMap((message) => (message.memberId === null ? [] : [message.memberId])))];
  return {
    ...commonFieldsOf(details),
    title: details.title,
    channelExternalId: conversation.channelExternalId,
    metadata: metadataOf(conversation),
    agent: agentRef(agent),
    unreadCount: details.unreadCount,
    messages: messages.map((message) => toMessage(message, senderOf(message, details))),
    participants: [
      ...writers.map((id) => ({ id, type: 'user' as const })),
      ...visitors.map(({ visitor }) => ({ id: visitor.id, type: 'visitor' as const })),
      ...(contact === null ? [] : [{ id: contact.id, type: 'contact' as const }]),
    ],
    // The members who wrote in it (a member who left is still named by id).
    participantsUsers: writers.map((id) => ({ id, name: details.members.find((member) => member.id === id)?.name ?? null })),
    participantsVisitors: visitors.map(({ visitor, contact: known }) => ({
      id: visitor.id,
      contact: known && { id: known.id, firstName: known.firstName, lastName: known.lastName },
    })),
    participantsContacts:
      contact === null
        ? []
        : [{ id: contact.id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email, phoneNumber: contact.phoneNumber }],
    labels: details.labels.map(toLabelRef),
    visitorContext: toVisitorContext(conversation.visitorContext),
    visitorConversations: details.visitorConversations,
  };
};

export const toPatched = (view: ConversationView): Static<typeof PatchedConversation> => {
  const { conversation, agent, contact, messages } = view;
  return {
    ...commonFieldsOf(view),
    agent: agentRef(agent),
    lead: contact && { id: contact.id, email: contact.email, phoneNumber: contact.phoneNumber },
    metadata: metadataOf(conversation),
    messages: messages.map((message) => ({ ...toMessage(message, senderOf(message, view)), conversationId: message.conversationId })),
    workspace: { id: conversation.workspaceId, organization: { memberships: [] } },
  };
};

export const toListedMessage = (message: MessageRecord, view: ConversationView): Static<typeof ListedMessage> => ({
  id: message.id,
  text: message.text,
  from: message.from,
  sender: senderOf(message, view),
  createdAt: message.createdAt,
  read: message.read,
  attachments: message.attachments,
  ...(message.private ? { private: true as const } : {}),
});

export const toListed = (view: ConversationView): Static<typeof ListedConversation> => {
  const { conversation, agent, contact, messages } = view;
  return {
    ...commonFieldsOf(view),
    title: view.title,
    channelExternalId: conversation.channelExternalId,
    agent: agent && { id: agent.id, name: agent.name, iconUrl: agent.iconUrl, handle: agent.handle },
    contactInfo: contact && { phoneNumber: contact.phoneNumber, name: contactName(contact), email: contact.email },
    playground: conversation.playground,
    unreadCount: view.unreadCount,
    messages: messages.map((message) => toListedMessage(message, view)),
    labels: view.labels.map(toLabelRef),
  };
};

export const toSimplified = ({ conversation, agent, title }: ConversationView): Static<typeof SimplifiedConversation> => ({
  id: conversation.id,
  title,
  status: conversation.status,
  channel: conversation.channel,
  agent: agent && { id: agent.id, name: agent.name },
  updatedAt: conversation.updatedAt,
});

/** The URL of the next page: this request's, with the cursor replaced. */
export function nextPageLink(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://parley.invalid');
  url.searchParams.set('cursor', cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}
