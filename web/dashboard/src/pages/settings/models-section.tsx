import { useId, useState } from 'react';
import { fieldError } from '../../api';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
import { counted } from '../../components/counted';
import { EmptyState } from '../../components/empty-state';
import { Field } from '../../components/field';
import { readForm } from '../../components/form-data';
import { FormAlert } from '../../components/form-alert';
import { ModalDialog } from '../../components/modal-dialog';
import { BUILT_IN_NAMES, PROVIDER_KINDS, PROVIDER_LABELS, roleOf, servedBy } from '../../components/model-description';
import { ErrorState, LoadingState } from '../../components/query-status';
import { ApiForm } from '../../components/api-form';
import { SubmitActions } from '../../components/form-actions';
import {
  useClearRoute,
  useCreateProvider,
  useDeleteProvider,
  useModelProviders,
  useModels,
  useSetRoute,
  useTestProvider,
  useUpdateProvider,
  type Model,
  type ModelProvider,
  type ProviderInput,
  type ProviderKind,
} from '../../queries/models';
import { useCanAdminister } from '../../session/session';
import { AdminsOnly, SectionHeader } from './section-header';

const BASE_URL_HINTS: Readonly<Record<ProviderKind, string>> = {
  openai: 'Leave empty for api.openai.com.',
  anthropic: 'Leave empty for api.anthropic.com.',
  'openai-compatible': 'The API root, e.g. http://localhost:11434/v1 (Ollama), http://gpu-box:8000/v1 (vLLM), http://localhost:8080/v1 (llama.cpp).',
};

/** A provider's kind, name, address and key; the key is write-only (its hint shows which one is kept). */
function ProviderForm({ provider, close }: { provider?: ModelProvider; close: () => void }) {
  const create = useCreateProvider();
  const update = useUpdateProvider(provider?.id ?? '');
  const save = provider === undefined ? create : update;
  const [kind, setKind] = useState<ProviderKind>(provider?.kind ?? 'openai-compatible');
  const error = save.error;
  return (
    <ApiForm
      onSubmit={(form) => {
        const baseUrl = form.text('baseUrl').trim();
        const apiKey = form.text('apiKey').trim();
        const input: ProviderInput = {
          name: form.text('name').trim(),
          ...(provider === undefined ? { kind } : {}),
          baseUrl: baseUrl === '' ? null : baseUrl,
          // Editing: an empty field keeps the stored key.
          ...(apiKey === '' ? (provider === undefined ? { apiKey: null } : {}) : { apiKey }),
        };
        save.mutate(input, { onSuccess: close });
      }}
    >
      <FormAlert error={error} fields={['name', 'kind', 'baseUrl', 'apiKey']} />
      {provider === undefined && (
        <Field label="Kind" error={fieldError(error, 'kind')}>
          {(control) => (
            <select {...control} className="input" name="kind" value={kind} onChange={(event) => setKind(event.target.value as ProviderKind)}>
              {PROVIDER_KINDS.map((each) => (
                <option key={each} value={each}>
                  {each === 'openai-compatible' ? 'OpenAI-compatible server (vLLM, Ollama, llama.cpp)' : PROVIDER_LABELS[each]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label="Name" error={fieldError(error, 'name')} hint="How your team knows it, e.g. “Our vLLM”.">
        {(control) => <input {...control} className="input" name="name" defaultValue={provider?.name ?? ''} required maxLength={200} />}
      </Field>
      <Field label="Base URL" error={fieldError(error, 'baseUrl')} hint={BASE_URL_HINTS[kind]}>
        {(control) => (
          <input {...control} className="input mono" type="url" name="baseUrl" defaultValue={provider?.baseUrl ?? ''} spellCheck={false} />
        )}
      </Field>
      <Field
        label="API key"
        error={fieldError(error, 'apiKey')}
        hint={
          provider?.apiKeyHint
            ? `Stored encrypted (${provider.apiKeyHint}); leave empty to keep it.`
            : 'Stored encrypted and never shown again. A local server without auth needs none.'
        }
      >
        {(control) => <input {...control} className="input mono" type="password" name="apiKey" autoComplete="off" spellCheck={false} />}
      </Field>
      <SubmitActions pending={save.isPending} label={provider === undefined ? 'Add provider' : 'Save'} />
    </ApiForm>
  );
}

/** What the provider's test showed: works (with how many models it lists) or why not, in our words. */
function TestOutcome({ test }: { test: ReturnType<typeof useTestProvider> }) {
  return (
    <p className="provider-test" role="status">
      {test.data !== undefined && (
        <span className={test.data.ok ? 'test-ok' : 'field-error'}>
          {test.data.ok
            ? `Works: ${counted(test.data.models.length, 'model')} listed (${test.data.durationMs} ms).`
            : `${test.data.message} [${test.data.code}]`}
        </span>
      )}
      {test.isError && <span className="field-error">{test.error.message}</span>}
    </p>
  );
}

function ProviderCard({ provider, models }: { provider: ModelProvider; models: Model[] }) {
  const remove = useDeleteProvider();
  const test = useTestProvider(provider.id);
  const serves = models.filter((model) => model.providerId === provider.id).map((model) => model.name);
  return (
    <li className="card">
      <div className="card-row">
        <h3 className="card-title">{provider.name}</h3>
        <span className="tag">{PROVIDER_LABELS[provider.kind]}</span>
      </div>
      <dl className="provider-facts">
        <dt>Address</dt>
        <dd className="mono break">{provider.baseUrl ?? (provider.kind === 'anthropic' ? 'api.anthropic.com' : 'api.openai.com')}</dd>
        <dt>API key</dt>
        <dd className="mono">{provider.apiKeyHint ?? 'none'}</dd>
        <dt>Serves</dt>
        <dd>{serves.length === 0 ? 'no model name yet' : serves.join(', ')}</dd>
      </dl>
      {!provider.keyReadable && (
        <p className="alert alert-error" role="alert">
          Its API key was encrypted under another secret key (PARLEY_SECRET_KEY or secret.key changed): edit the provider and enter the key again.
        </p>
      )}
      <div className="card-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => test.mutate()}
          disabled={test.isPending}
          aria-label={`Test ${provider.name}`}
        >
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
        <ModalDialog
          title={`Edit ${provider.name}`}
          trigger={
            <button type="button" className="button button-small" aria-label={`Edit ${provider.name}`}>
              Edit
            </button>
          }
        >
          {(close) => <ProviderForm provider={provider} close={close} />}
        </ModalDialog>
        <ConfirmDialog
          trigger={rowDangerButton('Remove', `Remove ${provider.name}`)}
          title={`Remove ${provider.name}?`}
          description={
            serves.length === 0
              ? 'Its API key is deleted.'
              : `Its API key is deleted, and ${serves.join(', ')} go back to the server’s default model.`
          }
          confirmLabel="Remove provider"
          onConfirm={() => remove.mutateAsync(provider.id)}
        />
      </div>
      <TestOutcome test={test} />
    </li>
  );
}

/** One model name: what serves it, and a form to choose a provider's model for it. */
function ModelRoute({ model, providers }: { model: Model; providers: ModelProvider[] }) {
  const id = useId();
  const set = useSetRoute();
  const clear = useClearRoute();
  const [providerId, setProviderId] = useState(model.providerId ?? '');
  const error = set.error ?? clear.error;
  return (
    <li className="model-route">
      <div className="model-route-head">
        <code className="model-name">{model.name}</code>
        <span className="muted small">{roleOf(model.name)}</span>
      </div>
      <p className="small">
        Answered by <strong>{servedBy(model)}</strong>
        {model.providerId !== null && <span className="muted"> — server default: {servedBy({ ...model.operatorDefault, providerName: null })}</span>}
      </p>
      {providers.length > 0 && (
        <form
          className="model-route-form"
          aria-label={`Model for ${model.name}`}
          onSubmit={(event) => {
            const form = readForm(event);
            if (providerId === '') clear.mutate(model.name);
            else set.mutate({ name: model.name, providerId, model: form.text('model').trim() });
          }}
        >
          <div className="field">
            <label htmlFor={`${id}-provider`}>Provider</label>
            <select id={`${id}-provider`} className="input" value={providerId} onChange={(event) => setProviderId(event.target.value)}>
              <option value="">Server default</option>
              {providers.map((provider) => (
                <option key={provider.id} value={provider.id}>
                  {provider.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-model`}>Provider’s model id</label>
            <input
              id={`${id}-model`}
              className="input mono"
              name="model"
              defaultValue={model.providerId === null ? '' : model.model}
              disabled={providerId === ''}
              placeholder={providerId === '' ? '' : 'e.g. gpt-4o-mini, llama3.1:8b'}
              required={providerId !== ''}
              spellCheck={false}
            />
          </div>
          <button type="submit" className="button button-small" disabled={set.isPending || clear.isPending}>
            Save
          </button>
        </form>
      )}
      {error !== null && (
        <p className="field-error" role="alert">
          {error.message}
        </p>
      )}
    </li>
  );
}

/** Providers the workspace connects, and which of their models serves each model name. */
export function ModelsSection() {
  const canAdminister = useCanAdminister();
  const providers = useModelProviders({ enabled: canAdminister });
  const models = useModels();
  const addButton = (
    <ModalDialog
      title="Add a model provider"
      trigger={
        <button type="button" className="button button-primary">
          Add provider
        </button>
      }
    >
      {(close) => <ProviderForm close={close} />}
    </ModalDialog>
  );
  if (!canAdminister) {
    return (
      <section className="stack">
        <SectionHeader title="Models" />
        <AdminsOnly what="model providers" />
      </section>
    );
  }
  if (providers.isPending || models.isPending) return <LoadingState label="Loading models…" />;
  if (providers.isError) return <ErrorState error={providers.error} retry={() => void providers.refetch()} />;
  if (models.isError) return <ErrorState error={models.error} retry={() => void models.refetch()} />;
  const builtIn = models.data.filter((model) => BUILT_IN_NAMES.includes(model.name));
  const others = models.data.filter((model) => !BUILT_IN_NAMES.includes(model.name));
  return (
    <section className="stack">
      <SectionHeader
        title="Models"
        description="Connect OpenAI, Anthropic or your own server, then choose which of its models answers for each model name. Names you leave alone use the server’s default."
        action={providers.data.length > 0 ? addButton : undefined}
      />
      {providers.data.length === 0 ? (
        <EmptyState title="No model providers yet" action={addButton}>
          Until you add one, agents answer with the server’s default models — out of the box the built-in offline model, which quotes sentences from
          your documents.
        </EmptyState>
      ) : (
        <ul className="card-list card-list-single" aria-label="Model providers">
          {providers.data.map((provider) => (
            <ProviderCard key={provider.id} provider={provider} models={models.data} />
          ))}
        </ul>
      )}
      <h3 className="section-subtitle">Model names</h3>
      <ul className="model-routes" aria-label="Model names">
        {builtIn.map((model) => (
          <ModelRoute key={`${model.name}-${model.providerId ?? ''}-${model.model}`} model={model} providers={providers.data} />
        ))}
      </ul>
      {others.length > 0 && (
        <details className="overrides">
          <summary>Names clients of the hosted service send ({others.length})</summary>
          <ul className="model-routes">
            {others.map((model) => (
              <ModelRoute key={`${model.name}-${model.providerId ?? ''}-${model.model}`} model={model} providers={providers.data} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
