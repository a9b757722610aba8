import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { Field } from '../../components/field';
import { SubmitActions } from '../../components/form-actions';
import { FormAlert } from '../../components/form-alert';
import { useConnectChannel, useUpdateChannel, type ChannelConnection, type SlackConfig, type SlackConfigInput } from '../../queries/channels';
import { VendorApiField } from './vendor-api-field';

/** The Web API's base unless a test server is given. */
export const SLACK_API = 'https://slack.com/api/';

const FIELDS = ['config.botToken', 'config.signingSecret', 'config.apiBaseUrl'];

interface SlackFormProps {
  agentId: string;
  /** The connection to change; absent: a new one. */
  connection?: ChannelConnection & { config: SlackConfig };
  close: () => void;
}

/** A Slack app's bot token and signing secret (write-only: hints show which are kept), and the Web API's base. */
export function SlackForm({ agentId, connection, close }: SlackFormProps) {
  const create = useConnectChannel(agentId);
  const update = useUpdateChannel({ id: connection?.id ?? '', agentId });
  const save = connection === undefined ? create : update;
  const error = save.error;
  const kept = (hint: string | null | undefined, about: string) => (hint ? `Stored encrypted (${hint}); leave empty to keep it.` : about);
  return (
    <ApiForm
      onSubmit={(form) => {
        const botToken = form.text('botToken').trim();
        const signingSecret = form.text('signingSecret').trim();
        const apiBaseUrl = form.text('apiBaseUrl').trim();
        // Editing: an empty field keeps what is stored.
        const config: Partial<SlackConfigInput> = {
          ...(botToken === '' && connection !== undefined ? {} : { botToken }),
          ...(signingSecret === '' && connection !== undefined ? {} : { signingSecret }),
          ...(apiBaseUrl === '' ? {} : { apiBaseUrl }),
        };
        if (connection === undefined) create.mutate({ channel: 'team_chat', config: config as SlackConfigInput }, { onSuccess: close });
        else update.mutate({ config }, { onSuccess: close });
      }}
    >
      {connection === undefined && (
        <p className="muted small">
          Create a Slack app at api.slack.com/apps, give its bot the scopes app_mentions:read, chat:write, im:history, commands and users:read, and
          install it in your workspace. Once connected, Parley shows the Request URL to paste in the app’s settings.
        </p>
      )}
      <FormAlert error={error} fields={FIELDS} />
      <Field
        label="Bot token"
        error={fieldError(error, 'config.botToken')}
        hint={kept(
          connection?.config.botTokenHint,
          'The Bot User OAuth Token (OAuth & Permissions), starting xoxb-. Stored encrypted, never shown again.',
        )}
      >
        {(control) => <input {...control} className="input mono" type="password" name="botToken" autoComplete="off" spellCheck={false} />}
      </Field>
      <Field
        label="Signing secret"
        error={fieldError(error, 'config.signingSecret')}
        hint={kept(
          connection?.config.signingSecretHint,
          'Basic Information → App Credentials → Signing Secret: Parley refuses every request Slack has not signed with it.',
        )}
      >
        {(control) => <input {...control} className="input mono" type="password" name="signingSecret" autoComplete="off" spellCheck={false} />}
      </Field>
      <VendorApiField
        label="Web API"
        standard={SLACK_API}
        kept={connection?.config.apiBaseUrl}
        hint={`Leave empty for Slack’s own, ${SLACK_API}; set it for a test server.`}
        error={error}
      />
      <SubmitActions
        pending={save.isPending}
        label={connection === undefined ? 'Connect Slack' : 'Save'}
        pendingLabel={connection === undefined ? 'Connecting…' : 'Saving…'}
      />
    </ApiForm>
  );
}
