import type { Static } from '@sinclair/typebox';
import type { ConversationDetails, ConversationView } from '../../domain/conversation-view.js';
import { contactName } from '../../domain/conversation-export.js';
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

export const toConversation = ({ conversation, agent, contact, messages, visitors }: ConversationDetails): Static<typeof Conversation> => ({
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
  // Members do not write in conversations yet (human replies come with the inbox), so no user takes part.
  participantsUsers: [],
  participantsVisitors: visitors.map(({ visitor, contact: known }) => ({
    id: visitor.id,
    contact: known && { id: known.id, firstName: known.firstName, lastName: known.lastName },
  })),
  participantsContacts:
    contact === null ? [] : [{ id: contact.id, firstName: contact.firstName, lastName: contact.lastName, email: contact.email }],
});

export const toPatched = ({ conversation, agent, contact, messages }: ConversationView): Static<typeof PatchedConversation> => ({
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

export const toListedMessage = (message: MessageRecord): Static<typeof ListedMessage> => ({
  id: message.id,
  text: message.text,
  from: message.from,
  createdAt: message.createdAt,
  read: message.read,
  attachments: message.attachments,
});

export const toListed = ({ conversation, agent, contact, messages }: ConversationView): Static<typeof ListedConversation> => ({
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
