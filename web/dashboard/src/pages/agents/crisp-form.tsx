import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { Field } from '../../components/field';
import { SubmitActions } from '../../components/form-actions';
import { FormAlert } from '../../components/form-alert';
import { useConnectChannel, useUpdateChannel, type ChannelConnection, type CrispConfig, type CrispConfigInput } from '../../queries/channels';
import { VendorApiField } from './vendor-api-field';

export const CRISP_API = 'https://api.crisp.chat/v1';

const FIELDS = ['config.websiteId', 'config.identifier', 'config.key', 'config.signingSecret', 'config.apiBaseUrl'];

interface CrispFormProps {
  agentId: string;
  /** The connection to change; absent: a new one. */
  connection?: ChannelConnection & { config: CrispConfig };
  close: () => void;
}

/** The website, a plugin token (its key write-only: the hint shows which one is kept), the hooks' signing secret, the REST API. */
export function CrispForm({ agentId, connection, close }: CrispFormProps) {
  const create = useConnectChannel(agentId);
  const update = useUpdateChannel({ id: connection?.id ?? '', agentId });
  const save = connection === undefined ? create : update;
  const error = save.error;
  const secretHint = (hint: string | null | undefined, otherwise: string) =>
    hint ? `Stored encrypted (${hint}); leave empty to keep it.` : otherwise;
  return (
    <ApiForm
      onSubmit={(form) => {
        const given = (name: string) => form.text(name).trim();
        // Editing: an empty field keeps what is stored.
        const optional = (name: keyof CrispConfigInput) => (given(name) === '' ? {} : { [name]: given(name) });
        const config: Partial<CrispConfigInput> = {
          ...optional('websiteId'),
          ...optional('identifier'),
          ...optional('key'),
          ...optional('signingSecret'),
          ...optional('apiBaseUrl'),
        };
        if (connection === undefined) create.mutate({ channel: 'helpdesk', config: config as CrispConfigInput }, { onSuccess: close });
        else update.mutate({ config }, { onSuccess: close });
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <Field
        label="Website ID"
        error={fieldError(error, 'config.websiteId')}
        hint="The website’s identifier (a UUID): in Crisp, Settings → Website settings → Setup instructions."
      >
        {(control) => (
          <input {...control} className="input mono" name="websiteId" defaultValue={connection?.config.websiteId ?? ''} required spellCheck={false} />
        )}
      </Field>
      <Field
        label="Token identifier"
        error={fieldError(error, 'config.identifier')}
        hint="From the Crisp Marketplace: your plugin → Tokens, the production token’s identifier."
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            name="identifier"
            defaultValue={connection?.config.identifier ?? ''}
            required
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Token key"
        error={fieldError(error, 'config.key')}
        hint={secretHint(connection?.config.keyHint, 'The same token’s key. Stored encrypted and never shown again.')}
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            type="password"
            name="key"
            autoComplete="off"
            required={connection === undefined}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Hooks signing secret (optional)"
        error={fieldError(error, 'config.signingSecret')}
        hint={secretHint(
          connection?.config.signingSecretHint,
          'For Plugin Hooks (your plugin → Settings → Events): every delivery must then carry Crisp’s signature. Leave empty for Website Hooks.',
        )}
      >
        {(control) => <input {...control} className="input mono" type="password" name="signingSecret" autoComplete="off" spellCheck={false} />}
      </Field>
      <VendorApiField
        label="REST API"
        standard={CRISP_API}
        kept={connection?.config.apiBaseUrl}
        hint={`Leave empty for Crisp’s own, ${CRISP_API}.`}
        error={error}
      />
      <SubmitActions
        pending={save.isPending}
        label={connection === undefined ? 'Connect Crisp' : 'Save'}
        pendingLabel={connection === undefined ? 'Connecting…' : 'Saving…'}
      />
    </ApiForm>
  );
}
