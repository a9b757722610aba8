import type { MessageRecord } from '../../store/store.js';
import type { WorkspaceCaller } from '../callers.js';
import type { ConversationView } from '../conversation-view.js';
import type { ActingMembers } from './acting-members.js';
import type { ConversationMessages } from './conversation-messages.js';
import type { ConversationPatch, ConversationStatusService } from './conversation-status.js';
import type { ConversationViews } from './conversation-views.js';
import type { Inbox } from './inbox.js';

/** A member's reply to a visitor. */
export interface ReplyInput {
  text: string;
  /** Who writes: a member caller writes as themself; an API key must name the member. */
  memberId?: string;
  /** Switch the agent off so it does not answer too; true unless told otherwise. */
  takeOver?: boolean;
}

/** A member's private note in a conversation. */
export interface NoteInput {
  text: string;
  /** Who writes: a member caller writes as themself; an API key must name the member. */
  memberId?: string;
}

/** Members answering visitors as people, and writing notes for each other. */
export class MemberReplies {
  constructor(
    private readonly views: ConversationViews,
    private readonly members: ActingMembers,
    private readonly status: ConversationStatusService,
    private readonly messages: ConversationMessages,
    private readonly inbox: Inbox,
  ) {}

  /**
   * A member answers the visitor as a person. Unless told otherwise this takes the conversation over (the
   * agent is switched off), assigns it to the member when nobody has it, and marks the visitor's messages read.
   */
  async reply(caller: WorkspaceCaller, id: string, input: ReplyInput): Promise<{ view: ConversationView; reply: MessageRecord }> {
    const { workspaceId } = caller;
    const conversation = await this.views.find(workspaceId, id);
    const writer = await this.members.writer(caller, input.memberId);
    const takeOver = input.takeOver ?? true;
    const changes: ConversationPatch = {
      ...(takeOver && conversation.isAiEnabled ? { isAiEnabled: false } : {}),
      ...(conversation.assigneeId === null ? { assigneeId: writer.id } : {}),
    };
    if (Object.keys(changes).length > 0) await this.status.patch(workspaceId, id, changes, writer);
    const { message } = await this.messages.add(workspaceId, id, { from: 'human', text: input.text, memberId: writer.id });
    await this.inbox.markRead(workspaceId, id);
    return { view: await this.views.of(await this.views.find(workspaceId, id), 'none'), reply: message };
  }

  /**
   * A member notes something for the team: a private message no visitor, channel or answer ever sees. It is
   * no reply: the agent keeps answering, the status, assignee and unread messages stay as they are.
   */
  async note(caller: WorkspaceCaller, id: string, input: NoteInput): Promise<{ view: ConversationView; note: MessageRecord }> {
    const { workspaceId } = caller;
    await this.views.find(workspaceId, id);
    const writer = await this.members.writer(caller, input.memberId);
    const { message } = await this.messages.add(workspaceId, id, { from: 'human', text: input.text.trim(), memberId: writer.id, private: true });
    return { view: await this.views.of(await this.views.find(workspaceId, id), 'none'), note: message };
  }
}
