import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DateTime } from '../../components/date-time';
import { ModalDialog } from '../../components/modal-dialog';
import { ErrorState, LoadingState } from '../../components/query-status';
import type { Agent } from '../../queries/agents';
import {
  useChannelConnections,
  useDisconnectChannel,
  useTestChannel,
  useUpdateChannel,
  type ChannelConnection,
  type ConnectableChannel,
  type ConnectionStatus,
  type CrispConfig,
  type MailConfig,
  type SlackConfig,
  type TelegramConfig,
  type WhatsAppConfig,
} from '../../queries/channels';
import { useCanAdminister } from '../../session/session';
import { CRISP_API, CrispForm } from './crisp-form';
import { MailForm } from './mail-form';
import { SLACK_API, SlackForm } from './slack-form';
import { TelegramForm } from './telegram-form';
import { WhatsAppForm } from './whatsapp-form';

type TelegramConnection = ChannelConnection & { channel: 'messenger_b'; config: TelegramConfig };
type MailConnection = ChannelConnection & { channel: 'mail'; config: MailConfig };
type SlackConnection = ChannelConnection & { channel: 'team_chat'; config: SlackConfig };
type WhatsAppConnection = ChannelConnection & { channel: 'messenger_a'; config: WhatsAppConfig };
type CrispConnection = ChannelConnection & { channel: 'helpdesk'; config: CrispConfig };

const isTelegram = (connection: ChannelConnection): connection is TelegramConnection => connection.channel === 'messenger_b';
const isMail = (connection: ChannelConnection): connection is MailConnection => connection.channel === 'mail';
const isSlack = (connection: ChannelConnection): connection is SlackConnection => connection.channel === 'team_chat';
const isWhatsApp = (connection: ChannelConnection): connection is WhatsAppConnection => connection.channel === 'messenger_a';
const isCrisp = (connection: ChannelConnection): connection is CrispConnection => connection.channel === 'helpdesk';

const CHANNEL_NAMES: Readonly<Record<ConnectableChannel, string>> = {
  messenger_b: 'Telegram',
  mail: 'E-mail',
  team_chat: 'Slack',
  helpdesk: 'Crisp',
  messenger_a: 'WhatsApp',
};

const CHANNEL_ABOUT: Readonly<Record<ConnectableChannel, string>> = {
  messenger_b: 'People write to your Telegram bot; the agent answers in the chat, and your team can reply from the inbox.',
  mail: 'People write to an address of yours; the conversations land in the inbox, and replies go back by e-mail.',
  team_chat:
    'People mention your Slack app, message it directly or type /ask; the agent answers in the thread, and your team can reply from the inbox.',
  helpdesk:
    'Visitors write in your Crisp chatbox; the agent answers there, your team can reply from the inbox, and a request for a person goes to your Crisp operators.',
  messenger_a: 'People write to your WhatsApp Business number; the agent answers in the chat, and your team can reply from the inbox.',
};

const DISCONNECT_ABOUT: Readonly<Record<ConnectableChannel, string>> = {
  messenger_b: 'Telegram is told to stop delivering the bot’s messages to Parley, and the token is deleted. Past conversations stay in the inbox.',
  mail: 'Mail to the address no longer reaches the agent, and the stored passwords are deleted. Past conversations stay in the inbox.',
  team_chat:
    'Parley refuses what Slack sends from now on, and the token and signing secret are deleted; remove the Request URL in the Slack app too. Past conversations stay in the inbox.',
  helpdesk:
    'Crisp’s hooks to the address are refused from now on (remove the hook in Crisp too), and the token is deleted. Past conversations stay in the inbox.',
  messenger_a:
    'Parley refuses WhatsApp’s deliveries from now on, and the token and app secret are deleted; remove the webhook at Meta too. Past conversations stay in the inbox.',
};

const STATUS: Readonly<Record<ConnectionStatus, { label: string; tone: string }>> = {
  active: { label: 'Active', tone: 'badge-ok' },
  failing: { label: 'Failing', tone: 'badge-error' },
  disabled: { label: 'Disabled', tone: 'badge-neutral' },
};

/** `?tab=channels`: where people reach the agent besides the website — e-mail, Telegram, Slack and Crisp, one card each. */
export function ChannelsTab({ agent }: { agent: Agent }) {
  const canAdminister = useCanAdminister();
  const connections = useChannelConnections(agent.id, { enabled: canAdminister });
  if (!canAdminister) {
    return (
      <div className="alert alert-info" role="note">
        Only owners and admins can see and manage the agent’s e-mail, Telegram, WhatsApp, Slack and Crisp connections. Conversations from them show in
        the inbox for everyone.
      </div>
    );
  }
  if (connections.isPending) return <LoadingState label="Loading the channels…" />;
  if (connections.isError) return <ErrorState error={connections.error} retry={() => void connections.refetch()} />;
  const telegram = connections.data.find(isTelegram);
  const mail = connections.data.find(isMail);
  const slack = connections.data.find(isSlack);
  const crisp = connections.data.find(isCrisp);
  const whatsApp = connections.data.find(isWhatsApp);
  return (
    <section className="stack">
      <p className="muted">Connect {agent.name} where people already write. Every conversation shows in the inbox, whichever way it came.</p>
      <ul className="card-list card-list-single" aria-label="Channels">
        <ChannelCard
          channel="messenger_b"
          connection={telegram}
          connectForm={(close) => <TelegramForm agentId={agent.id} close={close} />}
          editForm={telegram && ((close) => <TelegramForm agentId={agent.id} connection={telegram} close={close} />)}
        >
          {telegram && <TelegramFacts connection={telegram} />}
        </ChannelCard>
        <ChannelCard
          channel="mail"
          connection={mail}
          wide
          connectForm={(close) => <MailForm agentId={agent.id} agentName={agent.name} close={close} />}
          editForm={mail && ((close) => <MailForm agentId={agent.id} agentName={agent.name} connection={mail} close={close} />)}
        >
          {mail && <MailFacts connection={mail} />}
        </ChannelCard>
        <ChannelCard
          channel="messenger_a"
          connection={whatsApp}
          connectForm={(close) => <WhatsAppForm agentId={agent.id} close={close} />}
          editForm={whatsApp && ((close) => <WhatsAppForm agentId={agent.id} connection={whatsApp} close={close} />)}
        >
          {whatsApp && <WhatsAppFacts connection={whatsApp} />}
        </ChannelCard>
        <ChannelCard
          channel="team_chat"
          connection={slack}
          wide
          connectForm={(close) => <SlackForm agentId={agent.id} close={close} />}
          editForm={slack && ((close) => <SlackForm agentId={agent.id} connection={slack} close={close} />)}
        >
          {slack && <SlackFacts connection={slack} />}
        </ChannelCard>
        <ChannelCard
          channel="helpdesk"
          connection={crisp}
          connectForm={(close) => <CrispForm agentId={agent.id} close={close} />}
          editForm={crisp && ((close) => <CrispForm agentId={agent.id} connection={crisp} close={close} />)}
        >
          {crisp && <CrispFacts connection={crisp} />}
        </ChannelCard>
      </ul>
    </section>
  );
}

interface ChannelCardProps {
  channel: ConnectableChannel;
  connection: ChannelConnection | undefined;
  /** The form of a new connection. */
  connectForm: (close: () => void) => ReactNode;
  /** The form changing the connection, when there is one. */
  editForm: ((close: () => void) => ReactNode) | undefined;
  wide?: boolean;
  /** What the connection is (its facts), when there is one. */
  children: ReactNode;
}

function ChannelCard({ channel, connection, connectForm, editForm, wide = false, children }: ChannelCardProps) {
  const name = CHANNEL_NAMES[channel];
  return (
    <li className="card channel-card" aria-labelledby={`channel-${channel}`}>
      <div className="card-row">
        <h3 className="card-title" id={`channel-${channel}`}>
          {name}
        </h3>
        {connection !== undefined && <span className={`badge ${STATUS[connection.status].tone}`}>{STATUS[connection.status].label}</span>}
      </div>
      {connection === undefined ? (
        <>
          <p className="muted small">{CHANNEL_ABOUT[channel]}</p>
          <div className="card-actions">
            <ModalDialog
              title={`Connect ${name}`}
              wide={wide}
              trigger={
                <button type="button" className="button button-primary" aria-label={`Connect ${name}`}>
                  Connect
                </button>
              }
            >
              {connectForm}
            </ModalDialog>
          </div>
        </>
      ) : (
        <>
          {children}
          <ConnectionActivity connection={connection} />
          <ConnectionActions connection={connection} name={name} wide={wide} editForm={editForm} />
        </>
      )}
    </li>
  );
}

/** A value to give the vendor, with a button copying it. */
function CopyValue({ value, label }: { value: string; label: string }) {
  return (
    <span className="copy-value">
      <code className="mono break">{value}</code>
      <CopyButton text={value} label={label} />
    </span>
  );
}

/** A bot's name, as the vendor told it at the last test, and which token is kept. */
function BotFacts({ username, tokenHint }: { username: string | null; tokenHint: string | null }) {
  return (
    <>
      <dt>Bot</dt>
      <dd>{username === null ? <span className="muted">not known yet: press Test</span> : `@${username}`}</dd>
      <dt>Token</dt>
      <dd className="mono">{tokenHint ?? 'none'}</dd>
    </>
  );
}

/** The vendor API's address, shown only when it is not the vendor's own (a self-hosted or test server). */
function VendorApiFact({ label, value, standard }: { label: string; value: string; standard: string }) {
  if (value === standard) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd className="mono break">{value}</dd>
    </>
  );
}

function TelegramFacts({ connection }: { connection: TelegramConnection }) {
  const { config } = connection;
  return (
    <>
      <dl className="provider-facts channel-facts">
        <BotFacts username={config.botUsername} tokenHint={config.botTokenHint} />
        <dt>Messages</dt>
        <dd>{config.mode === 'webhook' ? 'Telegram calls Parley (webhook)' : 'Parley asks Telegram (polling)'}</dd>
        <VendorApiFact label="Bot API" value={config.apiBaseUrl} standard="https://api.telegram.org" />
      </dl>
      {connection.inboundUrl !== null ? (
        <div className="paste-box">
          <p className="small">Parley gave Telegram this webhook address; if you set the bot’s webhook yourself, use it:</p>
          <CopyValue value={connection.inboundUrl} label="Copy webhook URL" />
        </div>
      ) : (
        <p className="muted small">Parley fetches the bot’s messages from Telegram itself: no public URL is needed, nothing to paste anywhere.</p>
      )}
    </>
  );
}

function SlackFacts({ connection }: { connection: SlackConnection }) {
  const { config } = connection;
  return (
    <>
      <dl className="provider-facts channel-facts">
        <BotFacts username={config.botUsername} tokenHint={config.botTokenHint} />
        <dt>Signing secret</dt>
        <dd className="mono">{config.signingSecretHint ?? 'none'}</dd>
        <VendorApiFact label="Web API" value={config.apiBaseUrl} standard={SLACK_API} />
      </dl>
      {connection.inboundUrl !== null && (
        <div className="paste-box">
          <p className="small">
            In the Slack app, paste this Request URL under <strong>Event Subscriptions</strong> (Slack checks it at once), and again as the Request
            URL of a slash command such as <code>/ask</code> under <strong>Slash Commands</strong>:
          </p>
          <CopyValue value={connection.inboundUrl} label="Copy Request URL" />
          <p className="small">
            Subscribe to the bot events <code>app_mention</code> and <code>message.im</code>; under App Home, let people send messages to the app. The
            bot needs the scopes <code>app_mentions:read</code>, <code>chat:write</code>, <code>im:history</code>, <code>commands</code> and{' '}
            <code>users:read</code> (for names); invite it to the channels it answers in.
          </p>
        </div>
      )}
    </>
  );
}

function CrispFacts({ connection }: { connection: CrispConnection }) {
  const { config } = connection;
  const signed = config.signingSecretHint !== null;
  return (
    <>
      <dl className="provider-facts channel-facts">
        <dt>Website</dt>
        <dd className="mono break">{config.websiteId}</dd>
        <dt>Token</dt>
        <dd className="mono break">
          {config.identifier} ({config.keyHint ?? 'no key'})
        </dd>
        <dt>Hooks</dt>
        <dd>{signed ? 'Plugin Hooks, signed by Crisp' : 'Website Hooks, with the key in the address'}</dd>
        <VendorApiFact label="REST API" value={config.apiBaseUrl} standard={CRISP_API} />
      </dl>
      {connection.inboundUrl !== null && (
        <div className="paste-box">
          <p className="small">
            {signed
              ? 'In the Crisp Marketplace, your plugin → Settings → Events: add this hook URL…'
              : 'In Crisp, Settings → Website settings → Advanced configuration → Web Hooks: add a hook with this URL…'}
          </p>
          <CopyValue value={connection.inboundUrl} label="Copy hook URL" />
          <p className="small">
            …and subscribe it to the event <code>message:send</code> (a visitor wrote). The address holds the connection’s key: keep it private.
          </p>
        </div>
      )}
    </>
  );
}

function WhatsAppFacts({ connection }: { connection: WhatsAppConnection }) {
  const { config } = connection;
  return (
    <>
      <dl className="provider-facts channel-facts">
        <dt>Number ID</dt>
        <dd className="mono">{config.phoneNumberId}</dd>
        <dt>Token</dt>
        <dd className="mono">{config.accessTokenHint ?? 'none'}</dd>
        <dt>After 24 hours</dt>
        <dd className="break">
          {config.templateName === null ? (
            <span className="muted">no template: replies fail until the person writes again</span>
          ) : (
            <>
              Template <span className="mono">{config.templateName}</span> ({config.templateLanguage})
            </>
          )}
        </dd>
      </dl>
      {connection.inboundUrl !== null && (
        <div className="paste-box">
          <p className="small">In Meta’s App Dashboard, WhatsApp → Configuration → Webhook, paste the callback URL…</p>
          <CopyValue value={connection.inboundUrl} label="Copy callback URL" />
          <p className="small">…and the verify token, then subscribe the webhook to the messages field:</p>
          <CopyValue value={config.verifyToken} label="Copy verify token" />
        </div>
      )}
    </>
  );
}

function MailFacts({ connection }: { connection: MailConnection }) {
  const { config } = connection;
  return (
    <>
      <dl className="provider-facts channel-facts">
        <dt>Address</dt>
        <dd className="break">
          {config.name === null ? '' : `${config.name} `}
          <span className="mono">{config.address}</span>
        </dd>
        <dt>Incoming</dt>
        <dd className="break">
          {config.inbound === 'smtp'
            ? 'Forwarded to Parley’s SMTP listener'
            : config.imap === null
              ? 'An IMAP mailbox'
              : `${config.imap.user} at ${config.imap.host}:${config.imap.port}, folder ${config.imap.mailbox}`}
        </dd>
        <dt>Outgoing</dt>
        <dd className="break">
          {config.smtp === null
            ? 'Parley’s own SMTP server'
            : `${config.smtp.host}:${config.smtp.port}${config.smtp.user === null ? '' : ` as ${config.smtp.user}`}`}
        </dd>
        <dt>Replies</dt>
        <dd>{config.aiReplies ? 'The agent answers by itself' : 'A person answers from the inbox'}</dd>
      </dl>
      {config.inbound === 'smtp' &&
        (connection.inboundUrl === null ? (
          <p className="alert alert-warning small">
            Parley’s SMTP listener is off, so forwarded mail cannot arrive: the operator sets PARLEY_MAIL_INBOUND_PORT (and usually
            PARLEY_MAIL_INBOUND_HOST) and restarts Parley.
          </p>
        ) : (
          <div className="paste-box">
            <p className="small">At your mail provider, forward the mail of this address…</p>
            <CopyValue value={config.address} label="Copy address" />
            <p className="small">…to Parley’s SMTP listener (the server to deliver to):</p>
            <CopyValue value={connection.inboundUrl.replace(/^smtp:\/\//, '')} label="Copy SMTP address" />
          </div>
        ))}
    </>
  );
}

/** When messages last came and went, and what went wrong last. */
function ConnectionActivity({ connection }: { connection: ChannelConnection }) {
  return (
    <>
      <dl className="card-facts">
        <div>
          <dt>Last message in</dt>
          <dd>
            <DateTime iso={connection.lastInboundAt} relative />
          </dd>
        </div>
        <div>
          <dt>Last message out</dt>
          <dd>
            <DateTime iso={connection.lastOutboundAt} relative />
          </dd>
        </div>
      </dl>
      {connection.lastError !== null && (
        <div className={connection.status === 'failing' ? 'alert alert-error small' : 'alert alert-info small'} role="note">
          <strong>{connection.status === 'failing' ? 'Failing: ' : 'Last error: '}</strong>
          {connection.lastError}
          {connection.lastErrorAt !== null && (
            <span className="muted">
              {' '}
              (<DateTime iso={connection.lastErrorAt} relative />)
            </span>
          )}
        </div>
      )}
    </>
  );
}

interface ConnectionActionsProps {
  connection: ChannelConnection;
  name: string;
  wide: boolean;
  editForm: ((close: () => void) => ReactNode) | undefined;
}

function ConnectionActions({ connection, name, wide, editForm }: ConnectionActionsProps) {
  const test = useTestChannel(connection);
  const update = useUpdateChannel(connection);
  const disconnect = useDisconnectChannel(connection);
  return (
    <>
      <div className="card-actions">
        <button type="button" className="button button-small" onClick={() => test.mutate()} disabled={test.isPending} aria-label={`Test ${name}`}>
          {test.isPending ? 'Testing…' : 'Test'}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => update.mutate({ enabled: !connection.enabled })}
          disabled={update.isPending}
          aria-label={`${connection.enabled ? 'Disable' : 'Enable'} ${name}`}
        >
          {connection.enabled ? 'Disable' : 'Enable'}
        </button>
        <ModalDialog
          title={`Edit ${name}`}
          wide={wide}
          trigger={
            <button type="button" className="button button-small" aria-label={`Edit ${name}`}>
              Edit
            </button>
          }
        >
          {(close) => editForm?.(close)}
        </ModalDialog>
        <ConfirmDialog
          trigger={
            <button type="button" className="button button-small button-danger-quiet" aria-label={`Disconnect ${name}`}>
              Disconnect
            </button>
          }
          title={`Disconnect ${name}?`}
          description={DISCONNECT_ABOUT[connection.channel]}
          confirmLabel="Disconnect"
          onConfirm={() => disconnect.mutateAsync()}
        />
      </div>
      <p className="provider-test" role="status">
        {test.data !== undefined && <span className={test.data.ok ? 'test-ok' : 'field-error'}>{test.data.message}</span>}
        {test.isError && <span className="field-error">{test.error.message}</span>}
        {update.isError && <span className="field-error">{update.error.message}</span>}
      </p>
    </>
  );
}
