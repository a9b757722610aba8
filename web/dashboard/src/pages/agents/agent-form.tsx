import { useId, useState } from 'react';
import { Link } from 'wouter';
import { fieldError } from '../../api';
import { Field } from '../../components/field';
import { NumberField } from '../../components/number-field';
import { VisibilityField } from '../../components/visibility-field';
import { FormAlert } from '../../components/form-alert';
import type { Agent, AgentInput, Visibility } from '../../queries/agents';
import { useDatastores } from '../../queries/datastores';
import { useModels } from '../../queries/models';
import { roleOf, servedBy, whatItDoes } from '../../components/model-description';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import { useCanAdminister } from '../../session/session';

/** A new agent's values: the API's defaults. */
const DEFAULTS = {
  name: '',
  description: '',
  modelName: 'llm_b_mini',
  temperature: 0,
  visibility: 'private',
  systemPrompt: '',
  userPrompt: '{query}',
  allowedOrigins: [],
  keepAnsweringUntilTakenOver: false,
  tools: [],
} as const;

const FIELDS = [
  'name',
  'description',
  'modelName',
  'temperature',
  'visibility',
  'systemPrompt',
  'userPrompt',
  'tools',
  'allowedOrigins',
  'keepAnsweringUntilTakenOver',
];

interface AgentFormProps {
  agent?: Agent;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (input: AgentInput) => void;
}

/** Every field of an agent, for creating and for editing one. */
export function AgentForm({ agent, submitLabel, pending, error, onSubmit }: AgentFormProps) {
  const id = useId();
  const values = agent ?? DEFAULTS;
  const models = useModels();
  const canAdminister = useCanAdminister();
  const [modelName, setModelName] = useState<string>(values.modelName);
  const chosenModel = models.data?.find((model) => model.name === modelName);
  const datastores = useDatastores();
  const linked = new Set(values.tools.map((tool) => tool.datastoreId));
  // The agent's own model stays listed even if the server no longer offers it.
  const modelOptions = models.data?.some((model) => model.name === values.modelName)
    ? models.data
    : [{ name: values.modelName, provider: '' as const, model: '', providerName: null }, ...(models.data ?? [])];
  const toolsError = fieldError(error, 'tools');
  const visibilityError = fieldError(error, 'visibility');

  return (
    <ApiForm
      className="form form-wide"
      onSubmit={(form) => {
        const temperature = form.text('temperature').trim();
        onSubmit({
          name: form.text('name').trim(),
          description: form.text('description'),
          modelName: form.text('modelName'),
          ...(temperature === '' ? {} : { temperature: Number(temperature) }),
          visibility: form.text('visibility') as Visibility,
          systemPrompt: form.text('systemPrompt') === '' ? null : form.text('systemPrompt'),
          userPrompt: form.text('userPrompt'),
          tools: form.all('datastoreIds').map((datastoreId) => ({ type: 'datastore', datastoreId })),
          allowedOrigins: form
            .text('allowedOrigins')
            .split('\n')
            .map((origin) => origin.trim())
            .filter(Boolean),
          keepAnsweringUntilTakenOver: form.checked('keepAnsweringUntilTakenOver'),
        });
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <div className="form-section">
        <h2 className="form-section-title">Identity</h2>
        <Field label="Name" error={fieldError(error, 'name')}>
          {(control) => <input {...control} className="input" name="name" defaultValue={values.name} required maxLength={200} />}
        </Field>
        <Field label="Description" error={fieldError(error, 'description')} hint="For your team; visitors do not see it.">
          {(control) => <textarea {...control} className="input" name="description" rows={2} defaultValue={values.description} />}
        </Field>
      </div>

      <div className="form-section">
        <h2 className="form-section-title">Model</h2>
        <div className="form-row">
          <Field
            label="Model"
            error={fieldError(error, 'modelName')}
            hint={
              models.isError ? (
                'The list of models could not be loaded.'
              ) : chosenModel === undefined ? undefined : (
                <span className="model-about">
                  <strong>{chosenModel.name}</strong>, {roleOf(chosenModel.name)}, is answered by {servedBy(chosenModel)}.{' '}
                  {whatItDoes(chosenModel.provider)} {canAdminister && <Link href="/settings/models">Choose models in Settings → Models.</Link>}
                </span>
              )
            }
          >
            {(control) => (
              <select {...control} className="input" name="modelName" value={modelName} onChange={(event) => setModelName(event.target.value)}>
                {modelOptions.map((model) => (
                  <option key={model.name} value={model.name}>
                    {model.provider === '' ? model.name : `${model.name} — ${servedBy(model)}`}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <NumberField
            label="Temperature"
            name="temperature"
            error={fieldError(error, 'temperature')}
            hint="0 to 1: low is focused and repeatable, high is varied."
            min={0}
            max={1}
            step={0.1}
            defaultValue={values.temperature}
            inputMode="decimal"
          />
        </div>
      </div>

      <div className="form-section">
        <h2 className="form-section-title">Prompts</h2>
        <Field label="System prompt" error={fieldError(error, 'systemPrompt')} hint="How the agent behaves: its role, tone and limits. Optional.">
          {(control) => <textarea {...control} className="input mono" name="systemPrompt" rows={5} defaultValue={values.systemPrompt} />}
        </Field>
        <Field
          label="User prompt"
          error={fieldError(error, 'userPrompt')}
          hint={
            <>
              The message sent for each question. <code>{'{query}'}</code> is replaced by the question and <code>{'{context}'}</code> by the passages
              found in the datastores, e.g. <code>{'Answer from these notes: {context} Question: {query}'}</code>.
            </>
          }
        >
          {(control) => <textarea {...control} className="input mono" name="userPrompt" rows={4} defaultValue={values.userPrompt} />}
        </Field>
      </div>

      <div className="form-section">
        <h2 className="form-section-title">Knowledge</h2>
        <fieldset className="fieldset" aria-describedby={toolsError === undefined ? `${id}-tools-hint` : `${id}-tools-hint ${id}-tools-error`}>
          <legend>Datastores</legend>
          <p className="field-hint" id={`${id}-tools-hint`}>
            The agent searches these for every question.
          </p>
          {datastores.isPending ? (
            <p className="muted">Loading datastores…</p>
          ) : datastores.data === undefined || datastores.data.length === 0 ? (
            <p className="muted">
              No datastores yet — <Link href="/datastores">create one</Link> and upload your documents, then attach it here.
            </p>
          ) : (
            <ul className="checkbox-list">
              {datastores.data.map((datastore) => (
                <li key={datastore.id}>
                  <label className="check">
                    <input type="checkbox" name="datastoreIds" value={datastore.id} defaultChecked={linked.has(datastore.id)} />
                    {datastore.name}
                  </label>
                </li>
              ))}
            </ul>
          )}
          {toolsError !== undefined && (
            <div className="field-error" id={`${id}-tools-error`}>
              {toolsError}
            </div>
          )}
        </fieldset>
      </div>

      <div className="form-section">
        <h2 className="form-section-title">Access</h2>
        <VisibilityField
          value={values.visibility}
          error={visibilityError}
          privateNote="only callers with an API key of this workspace."
          publicNote="anyone, e.g. the chat widget on your website."
        />
        <Field
          label="Allowed origins"
          error={fieldError(error, 'allowedOrigins')}
          hint="For a public agent: the websites whose pages may call it, one per line (https://www.example.com). Empty allows any."
        >
          {(control) => (
            <textarea
              {...control}
              className="input mono"
              name="allowedOrigins"
              rows={3}
              defaultValue={values.allowedOrigins.join('\n')}
              spellCheck={false}
            />
          )}
        </Field>
      </div>

      <div className="form-section">
        <h2 className="form-section-title">When a visitor asks for a person</h2>
        <label className="check">
          <input
            type="checkbox"
            name="keepAnsweringUntilTakenOver"
            defaultChecked={values.keepAnsweringUntilTakenOver}
            aria-describedby={`${id}-keep-answering-hint`}
          />
          Keep answering until someone takes over
        </label>
        <p className="field-hint" id={`${id}-keep-answering-hint`}>
          Off: once a person is asked for (by the visitor or your team), the agent stops answering in that conversation and the visitor’s messages
          wait for your team. On: the agent answers them until a member replies or switches it off.
        </p>
      </div>

      <SubmitActions pending={pending} label={submitLabel} />
    </ApiForm>
  );
}
