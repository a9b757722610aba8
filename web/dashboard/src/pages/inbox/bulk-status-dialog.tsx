import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CONVERSATION_STATUSES, useBulkStatus, type ConversationStatus } from '../../queries/conversations';
import { STATUS_LABELS, type TabSelection } from './inbox-search';
import { counted } from '../../components/counted';

interface BulkStatusDialogProps {
  /** The tab's name, e.g. “Unresolved”. */
  tabLabel: string;
  selection: TabSelection;
  /** How many conversations the tab holds under the filters (the counts' total); undefined while unknown. */
  count: number | undefined;
  /** Fetches the count again: called as the dialog opens, so that it says what the request will change. */
  recount: () => void;
  /** The status every conversation of the tab already has, if one (not offered). */
  current: ConversationStatus | undefined;
  filtered: boolean;
  /** Told how many changed. */
  onDone: (count: number, status: ConversationStatus) => void;
}

const plural = (count: number) => counted(count, 'conversation');

/**
 * Sets the status of every conversation of the tab under the filters, loaded or not (spec: irreversible),
 * after saying how many that is: one request over the tab's own selection, which the counts count.
 */
export function BulkStatusDialog({ tabLabel, selection, count, recount, current, filtered, onDone }: BulkStatusDialogProps) {
  const id = useId();
  const bulk = useBulkStatus();
  const choices = CONVERSATION_STATUSES.filter((status) => status !== current);
  const [status, setStatus] = useState<ConversationStatus>(choices.includes('RESOLVED') ? 'RESOLVED' : choices[0]!);
  const target = choices.includes(status) ? status : choices[0]!;
  const known = count ?? 0;
  return (
    <ConfirmDialog
      trigger={
        <button type="button" className="button button-small" disabled={count === undefined || count === 0} onClick={recount}>
          Change status of all…
        </button>
      }
      title={`Change the status of ${plural(known)}?`}
      description={
        <>
          All {plural(known)} in “{tabLabel}”{filtered ? ' matching the filters' : ''} get the new status, not only those loaded in the list.{' '}
          <strong>This is irreversible:</strong> their current statuses are not kept, and there is no undo.
        </>
      }
      confirmLabel={`Set ${known} to ${STATUS_LABELS[target]}`}
      onConfirm={async () => onDone(await bulk.mutateAsync({ selection: selection.list, status: target }), target)}
    >
      <div className="field">
        <label htmlFor={`${id}-status`}>New status</label>
        <select id={`${id}-status`} className="input" value={target} onChange={(event) => setStatus(event.target.value as ConversationStatus)}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {STATUS_LABELS[choice]}
            </option>
          ))}
        </select>
      </div>
    </ConfirmDialog>
  );
}
