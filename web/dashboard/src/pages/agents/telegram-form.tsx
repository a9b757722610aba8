import { useState } from 'react';
import { fieldError } from '../../api';
import { ApiForm } from '../../components/api-form';
import { ChoiceField } from '../../components/choice-field';
import { Field } from '../../components/field';
import { SubmitActions } from '../../components/form-actions';
import { FormAlert } from '../../components/form-alert';
import {
  useConnectChannel,
  useUpdateChannel,
  type ChannelConnection,
  type TelegramConfig,
  type TelegramConfigInput,
  type TelegramMode,
} from '../../queries/channels';
import { VendorApiField } from './vendor-api-field';

const MODES: readonly { value: TelegramMode; label: string }[] = [
  { value: 'webhook', label: 'Webhook' },
  { value: 'polling', label: 'Polling' },
];

const MODE_HINTS: Readonly<Record<TelegramMode, string>> = {
  webhook: 'Telegram calls Parley at its public address as messages arrive: needs PARLEY_PUBLIC_URL on https.',
  polling: 'Parley asks Telegram for new messages: works behind a firewall, no public address needed.',
};

const FIELDS = ['config.botToken', 'config.mode', 'config.apiBaseUrl'];

const TELEGRAM_API = 'https://api.telegram.org';

interface TelegramFormProps {
  agentId: string;
  /** The connection to change; absent: a new one. */
  connection?: ChannelConnection & { config: TelegramConfig };
  close: () => void;
}

/** A bot's token (write-only: its hint shows which one is kept), how updates arrive, and the Bot API server. */
export function TelegramForm({ agentId, connection, close }: TelegramFormProps) {
  const create = useConnectChannel(agentId);
  const update = useUpdateChannel({ id: connection?.id ?? '', agentId });
  const save = connection === undefined ? create : update;
  // Without a public https address Telegram cannot call in; the dashboard's own address is the best guess of it.
  const [mode, setMode] = useState<TelegramMode>(connection?.config.mode ?? (window.location.protocol === 'https:' ? 'webhook' : 'polling'));
  const error = save.error;
  return (
    <ApiForm
      onSubmit={(form) => {
        const botToken = form.text('botToken').trim();
        const apiBaseUrl = form.text('apiBaseUrl').trim();
        const config: Partial<TelegramConfigInput> = {
          // Editing: an empty field keeps the stored token.
          ...(botToken === '' && connection !== undefined ? {} : { botToken }),
          mode,
          ...(apiBaseUrl === '' ? {} : { apiBaseUrl }),
        };
        if (connection === undefined) create.mutate({ channel: 'messenger_b', config: config as TelegramConfigInput }, { onSuccess: close });
        else update.mutate({ config }, { onSuccess: close });
      }}
    >
      <FormAlert error={error} fields={FIELDS} />
      <Field
        label="Bot token"
        error={fieldError(error, 'config.botToken')}
        hint={
          connection?.config.botTokenHint
            ? `Stored encrypted (${connection.config.botTokenHint}); leave empty to keep it.`
            : 'The token @BotFather gave you for the bot, like 123456789:AAF…. Stored encrypted and never shown again.'
        }
      >
        {(control) => <input {...control} className="input mono" type="password" name="botToken" autoComplete="off" spellCheck={false} />}
      </Field>
      <ChoiceField legend="How messages arrive" name="mode" value={mode} options={MODES} onChange={setMode} hint={MODE_HINTS[mode]} />
      <VendorApiField
        label="Bot API server"
        standard={TELEGRAM_API}
        kept={connection?.config.apiBaseUrl}
        hint={`Leave empty for Telegram’s own, ${TELEGRAM_API}; set it for a self-hosted Bot API server.`}
        error={error}
      />
      <SubmitActions
        pending={save.isPending}
        label={connection === undefined ? 'Connect Telegram' : 'Save'}
        pendingLabel={connection === undefined ? 'Connecting…' : 'Saving…'}
      />
    </ApiForm>
  );
}
