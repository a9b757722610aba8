import type { ReactElement } from 'react';
import { fieldError } from '../api';
import { ApiForm } from './api-form';
import { Field } from './field';
import { SubmitActions } from './form-actions';
import { FormAlert } from './form-alert';
import { ModalDialog } from './modal-dialog';
import { useAddQaEntry, useEditQaEntry } from '../queries/datasources';

/** A datastore the entry may go into. */
export interface QaTarget {
  id: string;
  name: string;
}

/** What the form opens with. */
export interface QaDraft {
  question: string;
  /** The answer to start from (the agent's, to improve); empty to write one. */
  answer: string;
  questions?: readonly string[];
}

/** Where the entry is saved: a new one in one of `datastores` (the member picks when there are several), or an existing one edited. */
export type QaDestination = { datastores: readonly QaTarget[]; sourceMessageId?: string } | { entryId: string };

interface QaEntryDialogProps {
  trigger: ReactElement;
  title: string;
  description: string;
  draft: QaDraft;
  destination: QaDestination;
}

/**
 * A question and its answer as a Q&A entry: from then on, a visitor asking that question (or one worded
 * closely, or one of its other wordings) gets this answer word for word.
 */
export function QaEntryDialog({ trigger, title, description, draft, destination }: QaEntryDialogProps) {
  return (
    <ModalDialog title={title} description={description} wide trigger={trigger}>
      {(close) => <QaEntryForm draft={draft} destination={destination} close={close} />}
    </ModalDialog>
  );
}

const FIELDS = ['datastoreId', 'config.question', 'config.answer', 'config.questions'];

/** One wording a line, blank lines left out. */
const wordings = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

function QaEntryForm({ draft, destination, close }: { draft: QaDraft; destination: QaDestination; close: () => void }) {
  const add = useAddQaEntry();
  const edit = useEditQaEntry();
  const saving = 'entryId' in destination ? edit : add;
  const targets = 'entryId' in destination ? [] : destination.datastores;
  return (
    <ApiForm
      onSubmit={(form) => {
        const entry = { question: form.text('question'), answer: form.text('answer'), questions: wordings(form.text('questions')) };
        if ('entryId' in destination) {
          edit.mutate({ id: destination.entryId, changes: { config: entry } }, { onSuccess: close });
          return;
        }
        const datastoreId = targets.length === 1 ? targets[0]!.id : form.text('datastoreId');
        const source = destination.sourceMessageId === undefined ? {} : { sourceMessageId: destination.sourceMessageId };
        add.mutate({ type: 'qa', datastoreId, config: { ...entry, ...source } }, { onSuccess: close });
      }}
    >
      <FormAlert error={saving.error} fields={FIELDS} />
      <Field
        label="Question"
        error={fieldError(saving.error, 'config.question')}
        hint="Visitors asking this, or something worded closely, get the answer below."
      >
        {(control) => <input {...control} className="input" name="question" required maxLength={500} defaultValue={draft.question} />}
      </Field>
      <Field label="Answer" error={fieldError(saving.error, 'config.answer')} hint="Said word for word, citing this entry.">
        {(control) => (
          <textarea {...control} className="input" name="answer" rows={7} required maxLength={10_000} defaultValue={draft.answer} autoFocus />
        )}
      </Field>
      <Field label="Other wordings" error={fieldError(saving.error, 'config.questions')} hint="Optional: other ways visitors ask it, one a line.">
        {(control) => <textarea {...control} className="input" name="questions" rows={2} defaultValue={(draft.questions ?? []).join('\n')} />}
      </Field>
      {targets.length > 1 && (
        <Field label="Datastore" error={fieldError(saving.error, 'datastoreId')}>
          {(control) => (
            <select {...control} className="input" name="datastoreId" defaultValue={targets[0]!.id}>
              {targets.map((datastore) => (
                <option key={datastore.id} value={datastore.id}>
                  {datastore.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <SubmitActions pending={saving.isPending} label="Save answer" />
    </ApiForm>
  );
}
