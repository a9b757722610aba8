import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { Field } from '../../components/field';
import { SubmitActions } from '../../components/form-actions';
import { FormAlert } from '../../components/form-alert';
import { useConnectChannel, useUpdateChannel, type ChannelConnection, type WhatsAppConfig, type WhatsAppConfigInput } from '../../queries/channels';

const GRAPH_API = 'https://graph.facebook.com/v27.0';

const FIELDS = [
  'config.phoneNumberId',
  'config.accessToken',
  'config.appSecret',
  'config.verifyToken',
  'config.templateName',
  'config.templateLanguage',
  'config.graphApiBaseUrl',
];

interface WhatsAppFormProps {
  agentId: string;
  /** The connection to change; absent: a new one. */
  connection?: ChannelConnection & { config: WhatsAppConfig };
  close: () => void;
}

/**
 * A WhatsApp Business number of the Cloud API: its id, a system user's token and the app secret (both
 * write-only: their hints show which are kept), the template for replies after 24 hours, and the verify token
 * Meta is given with the callback URL.
 */
export function WhatsAppForm({ agentId, connection, close }: WhatsAppFormProps) {
  const create = useConnectChannel(agentId);
  const update = useUpdateChannel({ id: connection?.id ?? '', agentId });
  const save = connection === undefined ? create : update;
  const error = save.error;
  const secretHint = (hint: string | null | undefined, what: string) =>
    hint ? `Stored encrypted (${hint}); leave empty to keep it.` : `${what} Stored encrypted and never shown again.`;
  return (
    <ApiForm
      onSubmit={(form) => {
        const given = (name: string) => form.text(name).trim();
        const optional = (name: string) => (given(name) === '' ? {} : { [name]: given(name) });
        const templateName = given('templateName');
        const config = {
          ...optional('phoneNumberId'),
          // Editing: an empty secret keeps the stored one.
          ...optional('accessToken'),
          ...optional('appSecret'),
          ...optional('verifyToken'),
          ...optional('graphApiBaseUrl'),
          ...(templateName === ''
            ? connection?.config.templateName
              ? { templateName: null }
              : {}
            : { templateName, templateLanguage: given('templateLanguage') }),
        };
        if (connection === undefined) create.mutate({ channel: 'messenger_a', config: config as WhatsAppConfigInput }, { onSuccess: close });
        else update.mutate({ config: config }, { onSuccess: close });
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <Field
        label="Phone number ID"
        error={fieldError(error, 'config.phoneNumberId')}
        hint="In Meta’s App Dashboard, WhatsApp → API Setup: the ID of the business number (digits), not the number itself."
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            name="phoneNumberId"
            inputMode="numeric"
            defaultValue={connection?.config.phoneNumberId ?? ''}
            required={connection === undefined}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Access token"
        error={fieldError(error, 'config.accessToken')}
        hint={secretHint(
          connection?.config.accessTokenHint,
          'A permanent token of a system user with whatsapp_business_messaging (Business Settings → System users).',
        )}
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            type="password"
            name="accessToken"
            autoComplete="off"
            required={connection === undefined}
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="App secret"
        error={fieldError(error, 'config.appSecret')}
        hint={secretHint(connection?.config.appSecretHint, 'App settings → Basic → App secret: Parley checks every delivery’s signature with it.')}
      >
        {(control) => (
          <input
            {...control}
            className="input mono"
            type="password"
            name="appSecret"
            autoComplete="off"
            required={connection === undefined}
            spellCheck={false}
          />
        )}
      </Field>
      <fieldset className="fieldset">
        <legend>Replies after 24 hours</legend>
        <p className="muted small">
          WhatsApp lets a business write freely only within 24 hours of the person’s last message. After that, Parley sends this approved template
          (without variables) instead; with none, such a reply fails and the inbox says why.
        </p>
        <div className="form-row">
          <Field label="Template name" error={fieldError(error, 'config.templateName')} hint="Optional, e.g. reply_waiting; empty: none.">
            {(control) => (
              <input
                {...control}
                className="input mono"
                name="templateName"
                defaultValue={connection?.config.templateName ?? ''}
                spellCheck={false}
              />
            )}
          </Field>
          <Field label="Template language" error={fieldError(error, 'config.templateLanguage')} hint="The template’s language code, e.g. en_US.">
            {(control) => (
              <input
                {...control}
                className="input mono"
                name="templateLanguage"
                defaultValue={connection?.config.templateLanguage ?? ''}
                placeholder="en_US"
                spellCheck={false}
              />
            )}
          </Field>
        </div>
      </fieldset>
      <details
        className="overrides"
        open={(fieldError(error, 'config.graphApiBaseUrl') ?? fieldError(error, 'config.verifyToken')) ? true : undefined}
      >
        <summary>Advanced</summary>
        <Field
          label="Verify token"
          error={fieldError(error, 'config.verifyToken')}
          hint="What you give Meta beside the callback URL. Leave empty and Parley makes one; it is shown on the connection."
        >
          {(control) => <input {...control} className="input mono" name="verifyToken" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field
          label="Graph API"
          error={fieldError(error, 'config.graphApiBaseUrl')}
          hint={`Leave empty for Meta’s, ${GRAPH_API}; set it for another API version or a test server.`}
        >
          {(control) => (
            <input
              {...control}
              className="input mono"
              type="url"
              name="graphApiBaseUrl"
              defaultValue={connection?.config.graphApiBaseUrl === GRAPH_API ? '' : (connection?.config.graphApiBaseUrl ?? '')}
              placeholder={GRAPH_API}
              spellCheck={false}
            />
          )}
        </Field>
      </details>
      <SubmitActions
        pending={save.isPending}
        label={connection === undefined ? 'Connect WhatsApp' : 'Save'}
        pendingLabel={connection === undefined ? 'Connecting…' : 'Saving…'}
      />
    </ApiForm>
  );
}
