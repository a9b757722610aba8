import { useId, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { counted } from '../../components/counted';
import { useBulkLabels, useLabels } from '../../queries/labels';

interface BulkLabelDialogProps {
  /** The conversations loaded in the list (at most the API's 100 a request). */
  conversationIds: readonly string[];
  /** Told what was done, in words. */
  onDone: (summary: string) => void;
}

const MAX = 100;

/** Puts a label on, or takes it off, the conversations listed (the first 100). */
export function BulkLabelDialog({ conversationIds, onDone }: BulkLabelDialogProps) {
  const id = useId();
  const labels = useLabels();
  const bulk = useBulkLabels();
  const [labelId, setLabelId] = useState('');
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const ids = conversationIds.slice(0, MAX);
  const choices = labels.data ?? [];
  const chosen = choices.find((label) => label.id === labelId) ?? choices[0];
  return (
    <ConfirmDialog
      trigger={
        <button type="button" className="button button-small" disabled={ids.length === 0 || choices.length === 0}>
          Label all…
        </button>
      }
      title={`Label ${counted(ids.length, 'conversation')}`}
      description={<>The {counted(ids.length, 'conversation')} listed now get the label, or lose it.</>}
      confirmLabel={chosen === undefined ? 'Apply' : `${action === 'add' ? 'Add' : 'Remove'} “${chosen.name}”`}
      onConfirm={async () => {
        if (chosen === undefined) return;
        const result = await bulk.mutateAsync({ conversationIds: ids, ...(action === 'add' ? { add: [chosen.id] } : { remove: [chosen.id] }) });
        onDone(
          action === 'add'
            ? `“${chosen.name}” added to ${counted(result.added, 'conversation')}.`
            : `“${chosen.name}” removed from ${counted(result.removed, 'conversation')}.`,
        );
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-label`}>Label</label>
        <select id={`${id}-label`} className="input" value={chosen?.id ?? ''} onChange={(event) => setLabelId(event.target.value)}>
          {choices.map((label) => (
            <option key={label.id} value={label.id}>
              {label.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="field">
        <legend>Action</legend>
        <label className="radio-row">
          <input type="radio" name={`${id}-action`} checked={action === 'add'} onChange={() => setAction('add')} /> Add the label
        </label>
        <label className="radio-row">
          <input type="radio" name={`${id}-action`} checked={action === 'remove'} onChange={() => setAction('remove')} /> Remove the label
        </label>
      </fieldset>
    </ConfirmDialog>
  );
}
