import type { ChannelInput } from '../../src/domain/channels.js';
import type { NewMessageInput } from '../../src/domain/conversations/new-message.js';
import type { ContactFields } from '../../src/store/store.js';
import type { TestParley } from '../support/parley.js';

export interface ConversationSeed {
  agentId?: string | null;
  channel?: ChannelInput;
  channelExternalId?: string;
  contact?: ContactFields;
  conversationId?: string;
  visitorId?: string;
  /** Written in this order; `[from, text]` or a whole message. */
  messages?: ([NewMessageInput['from'], string] | NewMessageInput)[];
}

export interface SeededConversation {
  id: string;
  visitorId: string;
  messageIds: string[];
}

/**
 * A conversation as the agent query records it, written through the service: any channel, contact and
 * sequence of messages in one step, without a model to answer.
 */
export async function seedConversation(parley: TestParley, workspaceId: string, seed: ConversationSeed = {}): Promise<SeededConversation> {
  const conversations = parley.core.services.conversations;
  const { conversation, visitorId } = await conversations.intake.start(workspaceId, {
    agentId: seed.agentId ?? null,
    channel: seed.channel ?? 'api',
    channelExternalId: seed.channelExternalId,
    contact: seed.contact,
    conversationId: seed.conversationId,
    visitorId: seed.visitorId,
  });
  const messageIds: string[] = [];
  for (const entry of seed.messages ?? []) {
    const input = Array.isArray(entry) ? { from: entry[0], text: entry[1] } : entry;
    const { message } = await conversations.messages.add(workspaceId, conversation.id, {
      visitorId: input.from === 'human' ? visitorId : null,
      ...input,
    });
    messageIds.push(message.id);
  }
  return { id: conversation.id, visitorId, messageIds };
}

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
