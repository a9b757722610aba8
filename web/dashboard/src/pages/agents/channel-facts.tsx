import { CopyButton } from '../../components/copy-button';
import type { ChannelConnection, CrispConfig, MailConfig, SlackConfig, TelegramConfig, WhatsAppConfig } from '../../queries/channels';
import { CRISP_API } from './crisp-form';
import { SLACK_API } from './slack-form';

/** What each channel's card shows of its connection: the addresses to give the vendor and the facts kept. */

type TelegramConnection = ChannelConnection & { channel: 'messenger_b'; config: TelegramConfig };
type MailConnection = ChannelConnection & { channel: 'mail'; config: MailConfig };
type SlackConnection = ChannelConnection & { channel: 'team_chat'; config: SlackConfig };
type WhatsAppConnection = ChannelConnection & { channel: 'messenger_a'; config: WhatsAppConfig };
type CrispConnection = ChannelConnection & { channel: 'helpdesk'; config: CrispConfig };

export const isTelegram = (connection: ChannelConnection): connection is TelegramConnection => connection.channel === 'messenger_b';
export const isMail = (connection: ChannelConnection): connection is MailConnection => connection.channel === 'mail';
export const isSlack = (connection: ChannelConnection): connection is SlackConnection => connection.channel === 'team_chat';
export const isWhatsApp = (connection: ChannelConnection): connection is WhatsAppConnection => connection.channel === 'messenger_a';
export const isCrisp = (connection: ChannelConnection): connection is CrispConnection => connection.channel === 'helpdesk';

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

export function TelegramFacts({ connection }: { connection: TelegramConnection }) {
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

export function SlackFacts({ connection }: { connection: SlackConnection }) {
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

export function CrispFacts({ connection }: { connection: CrispConnection }) {
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

export function WhatsAppFacts({ connection }: { connection: WhatsAppConnection }) {
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

export function MailFacts({ connection }: { connection: MailConnection }) {
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
