import os from 'node:os';
import { ConversationLabels } from './conversation-labels.js';
import type { Store } from '../../store/store.js';
import { ActingMembers } from './acting-members.js';
import { ConversationIntake } from './conversation-intake.js';
import { ConversationMessages } from './conversation-messages.js';
import { ConversationStatusService } from './conversation-status.js';
import { ConversationViews } from './conversation-views.js';
import { Inbox } from './inbox.js';
import { MemberReplies } from './member-replies.js';
import { MessageAttachments } from './message-attachments.js';

/** The conversation use cases, one module each, wired to one store. */
export interface ConversationUseCases {
  /** Reading one conversation: details, history, export, senders. */
  readonly views: ConversationViews;
  /** Visitors' messages coming in (the widget, the API, channels), and who the visitor is. */
  readonly intake: ConversationIntake;
  /** The one path every message is added by; ratings. */
  readonly messages: ConversationMessages;
  /** The agent switch, status, assignee and metadata; bulk status changes. */
  readonly status: ConversationStatusService;
  /** Members answering as people. */
  readonly replies: MemberReplies;
  /** The members' list, tab counts and read marks. */
  readonly inbox: Inbox;
  /** Which member a caller acts as. */
  readonly members: ActingMembers;
  /** Labels put on and taken off conversations. */
  readonly labels: ConversationLabels;
  /** Files kept with visitors' messages, downloaded by members. */
  readonly attachments: MessageAttachments;
}

/**
 * `onEvent`: called after a change recorded an event for the workspace, so in-process workers and streams see it at once.
 * `tempDir`: where attachments are written before the store's blobs take them (PARLEY_DATA_DIR/tmp).
 */
export function createConversationUseCases(
  store: Store,
  onEvent: (workspaceId: string) => void = () => undefined,
  tempDir: string = os.tmpdir(),
): ConversationUseCases {
  const views = new ConversationViews(store);
  const attachments = new MessageAttachments(store, tempDir);
  const members = new ActingMembers(store);
  const messages = new ConversationMessages(store, onEvent);
  const status = new ConversationStatusService(store, views, members, onEvent);
  const inbox = new Inbox(store, views, onEvent);
  return {
    views,
    intake: new ConversationIntake(store, messages, attachments, onEvent),
    messages,
    status,
    replies: new MemberReplies(views, members, status, messages, inbox),
    inbox,
    members,
    labels: new ConversationLabels(store),
    attachments,
  };
}
