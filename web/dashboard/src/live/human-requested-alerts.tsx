import { useLocation } from 'wouter';
import { getAlertSettings } from './alert-settings';
import { playChime } from './chime';
import type { ConversationEventPayload } from '../../../../src/contract/events';
import { useLiveEvent } from './live-events';

const whoOf = ({ contact }: ConversationEventPayload): string =>
  [contact?.firstName, contact?.lastName].filter(Boolean).join(' ') || contact?.email || 'A visitor';

/**
 * Tells the member when a conversation asks for a person (`human-requested`), as they chose in the inbox:
 * a desktop notification that opens the conversation, and a chime. Renders nothing.
 */
export function HumanRequestedAlerts() {
  const [, navigate] = useLocation();
  useLiveEvent((event) => {
    if (event.type !== 'human-requested') return;
    const settings = getAlertSettings();
    const conversation = event.data;
    if (settings.sound) playChime();
    if (!settings.desktop || !('Notification' in window) || Notification.permission !== 'granted') return;
    const lastWords = conversation.messages.filter((message) => message.from === 'human' && message.senderName === undefined).at(-1)?.text;
    const notification = new Notification(`${whoOf(conversation)} asks for a person`, {
      body: lastWords ?? conversation.title,
      // One notification per conversation: a second request replaces the first.
      tag: `human-requested:${conversation.conversationId}`,
    });
    notification.addEventListener('click', () => {
      window.focus();
      navigate(`/conversations/${encodeURIComponent(conversation.conversationId)}`);
      notification.close();
    });
  });
  return null;
}
