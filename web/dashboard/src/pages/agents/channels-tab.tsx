import type { ReactNode } from 'react';
import { ConfirmDialog, rowDangerButton } from '../../components/confirm-dialog';
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
} from '../../queries/channels';
import { useCanAdminister } from '../../session/session';
import { CrispFacts, isCrisp, isMail, isSlack, isTelegram, isWhatsApp, MailFacts, SlackFacts, TelegramFacts, WhatsAppFacts } from './channel-facts';
import { CrispForm } from './crisp-form';
import { MailForm } from './mail-form';
import { SlackForm } from './slack-form';
import { TelegramForm } from './telegram-form';
import { WhatsAppForm } from './whatsapp-form';

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
          trigger={rowDangerButton('Disconnect', `Disconnect ${name}`)}
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
