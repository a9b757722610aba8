import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { DataTable } from '../../components/data-table';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { SubmitActions } from '../../components/form-actions';
import { ModalDialog } from '../../components/modal-dialog';
import { QueryView } from '../../components/query-status';
import { useCreateSavedReply, useDeleteSavedReply, useSavedReplies, useUpdateSavedReply, type SavedReply } from '../../queries/saved-replies';
import { SectionHeader } from './section-header';

const FIELDS = ['shortcut', 'title', 'text'];

/** A new saved reply, or a change to one (`reply`). */
function SavedReplyForm({ reply, close }: { reply?: SavedReply; close: () => void }) {
  const create = useCreateSavedReply();
  const update = useUpdateSavedReply(reply?.id ?? '');
  const saving = reply === undefined ? create : update;
  return (
    <ApiForm
      onSubmit={(form) => {
        const body = { shortcut: form.text('shortcut').trim(), title: form.text('title').trim(), text: form.text('text') };
        if (reply === undefined) create.mutate(body, { onSuccess: close });
        else update.mutate(body, { onSuccess: close });
      }}
    >
      <FormAlert error={saving.error} fields={FIELDS} />
      <Field label="Shortcut" error={fieldError(saving.error, 'shortcut')} hint="Type / and this in a reply: a-z, 0-9 and -, e.g. “refund-policy”.">
        {(control) => (
          <input {...control} className="input mono" name="shortcut" maxLength={40} defaultValue={reply?.shortcut} autoComplete="off" required />
        )}
      </Field>
      <Field label="Title" error={fieldError(saving.error, 'title')}>
        {(control) => <input {...control} className="input" name="title" maxLength={200} defaultValue={reply?.title} required />}
      </Field>
      <Field label="Text" error={fieldError(saving.error, 'text')} hint="Inserted as it is; up to 5,000 characters.">
        {(control) => <textarea {...control} className="input" name="text" rows={6} maxLength={5_000} defaultValue={reply?.text} required />}
      </Field>
      <SubmitActions pending={saving.isPending} label={reply === undefined ? 'Save reply' : 'Save changes'} />
    </ApiForm>
  );
}

/** The workspace's saved replies (`/settings/saved-replies`): every member uses and manages them. */
export function SavedRepliesSection() {
  const replies = useSavedReplies();
  const remove = useDeleteSavedReply();
  return (
    <section className="stack">
      <SectionHeader
        title="Saved replies"
        description="Answers the team gives often. In a conversation, type / at the start of a word to insert one; every member can add and change them."
        action={
          <ModalDialog
            title="New saved reply"
            trigger={
              <button type="button" className="button button-primary">
                New saved reply
              </button>
            }
          >
            {(close) => <SavedReplyForm close={close} />}
          </ModalDialog>
        }
      />
      <QueryView query={replies} loading="Loading saved replies…">
        {(data) =>
          data.length === 0 ? (
            <p className="muted">No saved replies yet.</p>
          ) : (
            <DataTable caption="Saved replies" columns={['Shortcut', 'Title', 'Text']} actions>
              {data.map((reply) => (
                <tr key={reply.id}>
                  <td data-label="Shortcut" className="mono">
                    /{reply.shortcut}
                  </td>
                  <td data-label="Title">{reply.title}</td>
                  <td data-label="Text" className="saved-reply-cell">
                    {reply.text}
                  </td>
                  <td className="row-actions">
                    <ModalDialog
                      title={`Edit /${reply.shortcut}`}
                      trigger={
                        <button type="button" className="button button-small button-quiet" aria-label={`Edit /${reply.shortcut}`}>
                          Edit
                        </button>
                      }
                    >
                      {(close) => <SavedReplyForm reply={reply} close={close} />}
                    </ModalDialog>
                    <ConfirmDialog
                      trigger={rowDangerButton('Delete', `Delete /${reply.shortcut}`)}
                      title={`Delete the saved reply /${reply.shortcut}?`}
                      description="It is no longer offered in the reply box. Replies already sent stay as they were."
                      confirmLabel="Delete saved reply"
                      onConfirm={() => remove.mutateAsync(reply.id)}
                    />
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryView>
    </section>
  );
}
