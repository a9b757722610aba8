import type { ConversationStatus } from '../../queries/conversations';
import { STATUS_LABELS } from './inbox-search';

const TONES: Record<ConversationStatus, string> = {
  HUMAN_REQUESTED: 'badge-error',
  UNRESOLVED: 'badge-waiting',
  RESOLVED: 'badge-ok',
};

/** A conversation's status in words. */
export function ConversationStatusBadge({ status }: { status: ConversationStatus }) {
  return <span className={`badge ${TONES[status]}`}>{STATUS_LABELS[status]}</span>;
}
