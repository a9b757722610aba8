import type { AnswerSourceRecord, MessageFrom, MessageNotice, MessageUsage, NewKnowledgeGap, NewMessage } from '../../store/store.js';
import { questionKey } from '../../text/question-key.js';
import { noticeText } from '../handoff.js';
import { newId, now } from '../ids.js';
import type { KnowledgeGapFinding } from '../knowledge-gaps.js';
import { startsRead } from './conversation-rules.js';

export interface NewMessageInput {
  from: MessageFrom;
  text: string;
  sources?: AnswerSourceRecord[];
  attachments?: Record<string, unknown>[];
  usage?: MessageUsage | null;
  model?: string | null;
  visitorId?: string | null;
  /** The member writing, answering for the workspace (from `human`). */
  memberId?: string | null;
  /** Whether members have seen it; by default only visitor messages start unread (see {@link startsRead}). */
  read?: boolean;
  /** An agent answer that found nothing to answer from: the question, recorded as a knowledge gap with it. */
  knowledgeGap?: KnowledgeGapFinding & { question: string };
  /** An agent answer that stopped before its end: the text is what had been written. */
  interrupted?: boolean;
  /** A system message the server writes: what it tells, by kind (the text is its English wording). */
  notice?: MessageNotice;
  /** A message that came from outside: the channel vendor's id of it (see ConversationIntake.receive). */
  channelMessageId?: string;
  /** A member's private note (see MessageRecord.private). */
  private?: boolean;
}

/** The message `input` makes in a conversation, written now. */
export function newMessage(workspaceId: string, conversationId: string, input: NewMessageInput): NewMessage {
  const memberId = input.memberId ?? null;
  return {
    id: newId(),
    workspaceId,
    conversationId,
    from: input.from,
    text: input.text,
    sources: input.sources ?? [],
    read: input.read ?? startsRead({ from: input.from, memberId }),
    attachments: input.attachments ?? [],
    usage: input.usage ?? null,
    model: input.model ?? null,
    visitorId: input.visitorId ?? null,
    memberId,
    createdAt: now(),
    interrupted: input.interrupted ?? false,
    notice: input.notice ?? null,
    ...(input.channelMessageId === undefined ? {} : { channelMessageId: input.channelMessageId }),
    ...(input.private === true ? { private: true } : {}),
  };
}

/** A system message telling the visitor `notice`, in its stored English words. */
export const noticeInput = (notice: MessageNotice): NewMessageInput => ({ from: 'system', text: noticeText(notice), notice });

/** The knowledge gap an agent answer records, when it found nothing to answer from. */
export function knowledgeGapOf(message: NewMessage, agentId: string | null, gap: NewMessageInput['knowledgeGap']): NewKnowledgeGap | undefined {
  return (
    gap && {
      id: newId(),
      workspaceId: message.workspaceId,
      agentId,
      conversationId: message.conversationId,
      messageId: message.id,
      question: gap.question,
      questionKey: questionKey(gap.question),
      reason: gap.reason,
      bestScore: gap.bestScore,
      createdAt: message.createdAt,
    }
  );
}
