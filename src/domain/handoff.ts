import type { AgentRecord, ConversationRecord, MessageNotice } from '../store/store.js';

/**
 * Whether the agent answers a new message in the conversation (as it stands once the message is stored):
 * never after a member took it over (`isAiEnabled` false); while a person is asked for (HUMAN_REQUESTED) only
 * when the agent is set to keep answering until then. A resolved conversation that the visitor's message
 * reopened is UNRESOLVED again, so the agent answers unless a member had taken it over.
 */
export const agentAnswersIn = (
  conversation: Pick<ConversationRecord, 'isAiEnabled' | 'status'>,
  agent: Pick<AgentRecord, 'keepAnsweringUntilTakenOver'>,
): boolean => conversation.isAiEnabled && (conversation.status !== 'HUMAN_REQUESTED' || agent.keepAnsweringUntilTakenOver);

/** The system message left when a person takes the conversation over from the agent and nobody is named. */
export const AI_SWITCHED_OFF_NOTICE = 'The agent was switched off for this conversation; a person will answer.';

/**
 * The system messages the visitor reads when the conversation changes hands, by kind. They begin with the
 * hosted service's own notice text where they stand in for one, and name a member only by the name the
 * visitor already sees on that member's replies.
 */
export const handoffNotices = {
  /** A person was asked for; `email`: where the visitor said they can be reached. */
  humanRequested: (email: string | null): MessageNotice => (email === null ? { kind: 'humanRequested' } : { kind: 'humanRequested', email }),
  /** A member took the conversation over (the agent is switched off); `name`: theirs, when one is known. */
  personJoined: (name: string | null): MessageNotice => (name === null ? { kind: 'aiSwitchedOff' } : { kind: 'personJoined', name }),
  /** The visitor wrote in a resolved conversation. */
  reopened: { kind: 'reopened' },
} as const satisfies Record<string, MessageNotice | ((value: string | null) => MessageNotice)>;

/**
 * A notice's stored text: English, what the inbox, the API, exports and e-mails show. The chat widget words
 * the kinds it knows in the visitor's language instead (web/widget/src/strings).
 */
export function noticeText(notice: MessageNotice): string {
  switch (notice.kind) {
    case 'humanRequested':
      return notice.email === undefined
        ? 'A person will answer here soon.'
        : `A person will answer here soon. If you leave, we can also reply to ${notice.email} by e-mail.`;
    case 'personJoined':
      return `The agent was switched off for this conversation; ${notice.name} joined and will answer.`;
    case 'aiSwitchedOff':
      return AI_SWITCHED_OFF_NOTICE;
    case 'reopened':
      return 'This conversation was reopened.';
  }
}
