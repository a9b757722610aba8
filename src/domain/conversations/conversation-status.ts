import {
  conversationStatusEvent,
  conversationUpdatedEvent,
  EVENT_MESSAGE_COUNT,
  messageCreatedEvent,
  updatedEventFor,
} from '../../events/conversation-events.js';
import type { ConversationRecord, ConversationStatus, MemberRecord, MessageNotice, NewMessage, Store } from '../../store/store.js';
import { conversationFilter, type ConversationListQuery } from '../conversation-list.js';
import { senderOf, type ConversationView } from '../conversation-view.js';
import { handoffNotices } from '../handoff.js';
import { now } from '../ids.js';
import { findInWorkspace } from '../scoped.js';
import type { ActingMembers } from './acting-members.js';
import type { ConversationViews } from './conversation-views.js';
import { newMessage, noticeInput } from './new-message.js';
import { isForVisitor } from './conversation-rules.js';

export interface ConversationPatch {
  isAiEnabled?: boolean;
  status?: ConversationStatus;
  /** A member of the workspace, or null to unassign. */
  assigneeId?: string | null;
  /** Merged into the stored metadata. */
  metadata?: Record<string, unknown>;
}

/** Who handles a conversation and how far along it is: the agent switch, the status, the assignee, its metadata. */
export class ConversationStatusService {
  constructor(
    private readonly store: Store,
    private readonly views: ConversationViews,
    private readonly members: ActingMembers,
    private readonly onEvent: (workspaceId: string) => void,
  ) {}

  /**
   * Changes the agent switch, status and metadata. Switching the agent off leaves a system message naming
   * `by` (the member taking over) when given; asking for a person leaves one telling the visitor what happens
   * next; switching the agent back on while a person is asked for hands the conversation back to it
   * (UNRESOLVED). A new status RESOLVED or HUMAN_REQUESTED writes its event to the outbox, in the same transaction.
   */
  async patch(workspaceId: string, id: string, requested: ConversationPatch, by?: MemberRecord): Promise<ConversationView> {
    const conversation = await this.views.find(workspaceId, id);
    if (typeof requested.assigneeId === 'string') await this.members.member(workspaceId, requested.assigneeId, 'assigneeId');
    const handsBack = requested.isAiEnabled === true && requested.status === undefined && conversation.status === 'HUMAN_REQUESTED';
    const patch: ConversationPatch = handsBack ? { ...requested, status: 'UNRESOLVED' } : requested;
    const at = now();
    const notice = (told: MessageNotice): NewMessage => ({ ...newMessage(workspaceId, id, noticeInput(told)), createdAt: at });
    const willSwitchOff = conversation.isAiEnabled && patch.isAiEnabled === false;
    const willRequest = conversation.status !== 'HUMAN_REQUESTED' && patch.status === 'HUMAN_REQUESTED';
    const joined = willSwitchOff ? notice(handoffNotices.personJoined(by?.name.trim() || null)) : undefined;
    const personAsked = willRequest ? notice(handoffNotices.humanRequested(await this.contactEmail(conversation))) : undefined;
    const notices = [personAsked, joined].filter((message) => message !== undefined);
    const event = patch.status === undefined ? undefined : await this.statusEvent(conversation, patch.status, notices);
    const updated = await this.store.conversations.update(
      workspaceId,
      id,
      { isAiEnabled: patch.isAiEnabled, status: patch.status, metadata: patch.metadata, assigneeId: patch.assigneeId },
      {
        onAiSwitchedOff: joined,
        onHumanRequested: personAsked,
        announce: (message) => messageCreatedEvent(message, conversation.agentId),
        onStatusChanged: event,
        onUpdated: updatedEventFor,
      },
      at,
    );
    if (updated !== undefined && updatedEventFor(updated) !== undefined) this.onEvent(workspaceId);
    return this.views.of(updated?.after ?? (await this.views.find(workspaceId, id)), 'all');
  }

  /**
   * Sets the status of every conversation of the workspace matching the filters (all without one). Each
   * conversation that changes emits `conversation.updated` (live views follow), not the notifying events:
   * one bulk change must not send a mail per conversation.
   */
  async updateMany(workspaceId: string, query: ConversationListQuery, status: ConversationStatus): Promise<{ count: number; message: string }> {
    if (query.agentId !== undefined) await findInWorkspace(this.store.agents, 'Agent', workspaceId, query.agentId);
    if (query.assigneeId !== undefined) await this.members.member(workspaceId, query.assigneeId, 'assigneeId');
    const count = await this.store.conversations.bulkUpdateStatus(workspaceId, conversationFilter(query), status, now(), ({ after }) =>
      conversationUpdatedEvent(after, ['status']),
    );
    if (count > 0) this.onEvent(workspaceId);
    return { count, message: `${count} conversation${count === 1 ? '' : 's'} set to ${status}` };
  }

  /** Where the conversation's visitor said they can be reached by e-mail, if they did. */
  private async contactEmail(conversation: ConversationRecord): Promise<string | null> {
    if (conversation.contactId === null) return null;
    const [contact] = await this.store.participants.contacts(conversation.workspaceId, [conversation.contactId]);
    return contact?.email ?? null;
  }

  /** The event a change to `status` emits, with the messages as they will stand after the change. */
  private async statusEvent(conversation: ConversationRecord, status: ConversationStatus, notices: readonly NewMessage[]) {
    const { workspaceId } = conversation;
    const view = await this.views.of(conversation, 'none');
    // The e-mail may go to the visitor: the team's private notes stay out.
    const messages = (await this.store.messages.listByConversations(workspaceId, [conversation.id], { latest: EVENT_MESSAGE_COUNT })).filter(
      isForVisitor,
    );
    // Members are named in the e-mail; visitors and the agent as before (the contact, the agent's name).
    const senderNames = new Map(
      messages.flatMap((message) => {
        const sender = senderOf(message, view);
        return sender?.type === 'user' && sender.name !== null ? [[message.id, sender.name] as const] : [];
      }),
    );
    return conversationStatusEvent({
      conversation,
      status,
      agent: view.agent,
      contact: view.contact,
      messages: [
        ...messages,
        ...notices.map((notice) => ({ ...notice, eval: null, private: false, channelMessageId: null, delivery: notice.delivery ?? null })),
      ],
      senderNames,
    });
  }
}
