import type { Static } from '@sinclair/typebox';
import { contactName, senderOf, type ConversationDetails, type ConversationView } from '../../domain/conversation-view.js';
import type { AgentRecord, ConversationRecord, MessageRecord } from '../../store/store.js';
import type {
  AgentRef,
  Conversation,
  ListedConversation,
  ListedMessage,
  Metadata,
  PatchedConversation,
  SimplifiedConversation,
} from './conversation-schemas.js';
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

export const toConversation = (details: ConversationDetails): Static<typeof Conversation> => {
  const { conversation, agent, contact, messages, visitors } = details;
  const writers = [...new Set(messages.flatMap((message) => (message.memberId === null ? [] : [message.memberId])))];
  return {
  id: conversation.id,
  title: conversation.title,
  status: conversation.status,
  channel: conversation.channel,
  channelExternalId: conversation.channelExternalId,
  isAiEnabled: conversation.isAiEnabled,
  metadata: metadataOf(conversation),
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
  agent: agentRef(agent),
  assignee: assigneeOf(details),
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
  };
};

export const toPatched = (view: ConversationView): Static<typeof PatchedConversation> => {
  const { conversation, agent, contact, messages } = view;
  return {
  id: conversation.id,
  status: conversation.status,
  isAiEnabled: conversation.isAiEnabled,
  channel: conversation.channel,
  agent: agentRef(agent),
  lead: contact && { id: contact.id, email: contact.email, phoneNumber: contact.phoneNumber },
  metadata: metadataOf(conversation),
  assignee: assigneeOf(view),
  messages: messages.map((message) => ({ ...toMessage(message, senderOf(message, view)), conversationId: message.conversationId })),
  workspace: { id: conversation.workspaceId, organization: { memberships: [] } },
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
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
});

export const toListed = (view: ConversationView): Static<typeof ListedConversation> => {
  const { conversation, agent, contact, messages } = view;
  return {
  id: conversation.id,
  title: conversation.title,
  status: conversation.status,
  channel: conversation.channel,
  channelExternalId: conversation.channelExternalId,
  agent: agent && { id: agent.id, name: agent.name, iconUrl: agent.iconUrl, handle: agent.handle },
  contactInfo: contact && { phoneNumber: contact.phoneNumber, name: contactName(contact), email: contact.email },
  isAiEnabled: conversation.isAiEnabled,
  playground: conversation.playground,
  assignee: assigneeOf(view),
  unreadCount: view.unreadCount,
  messages: messages.map((message) => toListedMessage(message, view)),
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
  };
};

export const toSimplified = ({ conversation, agent }: ConversationView): Static<typeof SimplifiedConversation> => ({
  id: conversation.id,
  title: conversation.title,
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
