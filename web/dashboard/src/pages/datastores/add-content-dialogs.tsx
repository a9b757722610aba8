import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { FormAlert } from '../../components/form-alert';
import { ModalDialog } from '../../components/modal-dialog';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import { useState } from 'react';
import { useAddDatasource, type NewDatasource, type RefreshInterval } from '../../queries/datasources';
import { DuplicateChoice, duplicateHolder } from './duplicate-choice';
import { REFRESH_CHOICES } from './refresh-schedule';
import { MAX_SITE_PAGES } from '../../../../../src/contract/datasources';

interface FormProps {
  datastoreId: string;
  close: () => void;
}

/**
 * Adds a text or a web page, refused first if the datastore holds it already (`reject`): the form then
 * names the datasource that does and sends the same body again with the person's choice.
 */
function useAddWithChoice(datastoreId: string, close: () => void) {
  const add = useAddDatasource(datastoreId);
  const [sent, setSent] = useState<NewDatasource>();
  const holder = duplicateHolder(add.error);
  const submit = (body: NewDatasource) => {
    setSent(body);
    add.mutate({ ...body, onDuplicate: 'reject' }, { onSuccess: close });
  };
  const choice = (what: string) =>
    holder !== undefined &&
    sent !== undefined && (
      <DuplicateChoice
        holder={holder}
        what={what}
        pending={add.isPending}
        choose={(onDuplicate) => add.mutate({ ...sent, onDuplicate }, { onSuccess: close })}
      />
    );
  return { add, submit, choice, error: holder === undefined ? add.error : null };
}

/** A question to write the answer to (an analytics knowledge gap): the form opens with it filled in. */
export interface TextDraft {
  question: string;
}

/** Pasted text as a datasource; with a draft, open at once on the question's answer. */
export function AddTextDialog({
  datastoreId,
  draft,
  onOpenChange,
}: {
  datastoreId: string;
  draft?: TextDraft;
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <ModalDialog
      title={draft === undefined ? 'Add text' : 'Answer a question'}
      description={
        draft === undefined
          ? 'Paste text, such as an FAQ or notes; it is indexed like a document.'
          : 'Write the answer under the question; once indexed, the agents answer it from this text.'
      }
      wide
      defaultOpen={draft !== undefined}
      onOpenChange={onOpenChange}
      trigger={
        <button type="button" className="button">
          Add text
        </button>
      }
    >
      {(close) => <TextForm datastoreId={datastoreId} close={close} draft={draft} />}
    </ModalDialog>
  );
}

function TextForm({ datastoreId, close, draft }: FormProps & { draft?: TextDraft }) {
  const { add, submit, choice, error } = useAddWithChoice(datastoreId, close);
  // The question heads the text (it helps retrieval find it); the cursor waits below it for the answer.
  const drafted = draft === undefined ? '' : `${draft.question}\n\n`;
  return (
    <ApiForm
      onSubmit={(form) => {
        const name = form.text('name').trim();
        submit({ type: 'text', text: form.text('text'), ...(name === '' ? {} : { name }) });
      }}
    >
      <FormAlert error={error} fields={['name', 'text']} />
      {choice('this text')}
      <Field label="Name" error={fieldError(error, 'name')} hint="Shown as the source of answers.">
        {(control) => <input {...control} className="input" name="name" maxLength={500} defaultValue={draft?.question} />}
      </Field>
      <Field label="Text" error={fieldError(error, 'text')} hint={draft === undefined ? undefined : 'The question, then its answer.'}>
        {(control) => (
          <textarea
            {...control}
            className="input"
            name="text"
            rows={10}
            required
            defaultValue={drafted}
            autoFocus={draft !== undefined}
            onFocus={(event) => event.currentTarget.setSelectionRange(event.currentTarget.value.length, event.currentTarget.value.length)}
          />
        )}
      </Field>
      <SubmitActions pending={add.isPending} label="Add text" pendingLabel="Adding…" />
    </ApiForm>
  );
}

/** A web page, fetched and indexed by the server. */
export function AddWebPageDialog({ datastoreId }: { datastoreId: string }) {
  return (
    <ModalDialog
      title="Add a web page"
      description="Parley fetches the page and indexes its main text. Resync, or the re-check schedule, fetches it again."
      trigger={
        <button type="button" className="button">
          Add web page
        </button>
      }
    >
      {(close) => <WebPageForm datastoreId={datastoreId} close={close} />}
    </ModalDialog>
  );
}

function WebPageForm({ datastoreId, close }: FormProps) {
  const { add, submit, choice, error } = useAddWithChoice(datastoreId, close);
  return (
    <ApiForm
      onSubmit={(form) => {
        const name = form.text('name').trim();
        const config = { source_url: form.text('url').trim(), refreshInterval: form.text('refreshInterval') as RefreshInterval };
        submit({ type: 'web_page', config, ...(name === '' ? {} : { name }) });
      }}
    >
      <FormAlert error={error} fields={['config', 'name']} />
      {choice('this page')}
      <Field label="Address (URL)" error={fieldError(error, 'config')}>
        {(control) => <input {...control} className="input" type="url" name="url" placeholder="https://www.example.com/help" required />}
      </Field>
      <Field label="Name" error={fieldError(error, 'name')} hint="Optional; the page’s address otherwise.">
        {(control) => <input {...control} className="input" name="name" maxLength={500} />}
      </Field>
      <RefreshField label="Re-check" hint="Fetched again on this schedule; an unchanged page costs no parsing and no embedding." initial="off" />
      <SubmitActions pending={add.isPending} label="Add web page" pendingLabel="Adding…" />
    </ApiForm>
  );
}

/** Path patterns as a person types them: one a line, or separated by commas. */
const patterns = (value: string): string[] =>
  value
    .split(/[\n,]/)
    .map((each) => each.trim())
    .filter((each) => each !== '');

/** A website, crawled by the server: each page it finds becomes a datasource under it. */
export function AddWebSiteDialog({ datastoreId }: { datastoreId: string }) {
  return (
    <ModalDialog
      title="Add a website"
      description="Parley reads the site’s sitemap (or follows its links from the start page), obeys its robots.txt, and indexes each page. Crawled again on the schedule, only new and changed pages are indexed again; pages gone from the site are removed."
      wide
      trigger={
        <button type="button" className="button">
          Add website
        </button>
      }
    >
      {(close) => <WebSiteForm datastoreId={datastoreId} close={close} />}
    </ModalDialog>
  );
}

function WebSiteForm({ datastoreId, close }: FormProps) {
  const { add, submit, choice, error } = useAddWithChoice(datastoreId, close);
  return (
    <ApiForm
      className="form form-wide"
      onSubmit={(form) => {
        const name = form.text('name').trim();
        const [include, exclude] = [patterns(form.text('include')), patterns(form.text('exclude'))];
        const maxPages = Number(form.text('maxPages'));
        const config = {
          source_url: form.text('url').trim(),
          refreshInterval: form.text('refreshInterval') as RefreshInterval,
          ...(include.length > 0 ? { include } : {}),
          ...(exclude.length > 0 ? { exclude } : {}),
          ...(Number.isInteger(maxPages) && maxPages > 0 ? { maxPages } : {}),
        };
        submit({ type: 'web_site', config, ...(name === '' ? {} : { name }) });
      }}
    >
      <FormAlert error={error} fields={['config', 'name']} />
      {choice('this website')}
      <Field
        label="Start page or sitemap (URL)"
        error={fieldError(error, 'config')}
        hint="Pages in the same folder and below are crawled unless you list paths to include."
      >
        {(control) => <input {...control} className="input" type="url" name="url" placeholder="https://www.example.com/help/" required />}
      </Field>
      <Field label="Name" error={fieldError(error, 'name')} hint="Optional; the address otherwise.">
        {(control) => <input {...control} className="input" name="name" maxLength={500} />}
      </Field>
      <div className="form-row">
        <Field label="Only these paths" hint="Optional, one a line: /docs/** or /blog/*">
          {(control) => <textarea {...control} className="input" name="include" rows={3} />}
        </Field>
        <Field label="Leave out these paths" hint="Optional, one a line: /account/**">
          {(control) => <textarea {...control} className="input" name="exclude" rows={3} />}
        </Field>
      </div>
      <div className="form-row">
        <Field label="At most this many pages" hint="Up to 5,000; 200 when left empty.">
          {(control) => <input {...control} className="input" type="number" name="maxPages" min={1} max={MAX_SITE_PAGES} placeholder="200" />}
        </Field>
        <RefreshField label="Crawl again" hint="Unchanged pages cost no parsing and no embedding." initial="weekly" />
      </div>
      <SubmitActions pending={add.isPending} label="Add website" pendingLabel="Adding…" />
    </ApiForm>
  );
}

/** How often a URL source is fetched again, as a form field named `refreshInterval`. */
function RefreshField({ label, hint, initial }: { label: string; hint: string; initial: RefreshInterval }) {
  return (
    <Field label={label} hint={hint}>
      {(control) => (
        <select {...control} className="input" name="refreshInterval" defaultValue={initial}>
          {REFRESH_CHOICES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
