import { ChannelError, type ChannelConnector, type ConnectionCheck, type ConnectorConnection } from '../../channels/connector.js';
import {
  CONNECTABLE_CHANNELS,
  type ChannelConnectionBody,
  type ConnectableChannel,
  type ConnectionTestResultBody,
  type CreateChannelConnectionBody,
  type UpdateChannelConnectionBody,
} from '../../contract/channel-connections.js';
import { conflict, invalid, notFound } from '../../errors.js';
import type { ChannelConnectionRecord, Store } from '../../store/store.js';
import { normalizeChannel, type ChannelInput } from '../channels.js';
import { newId, now } from '../ids.js';
import { findInWorkspace } from '../scoped.js';
import type { SecretBox } from '../secret-box.js';
import type { Signals } from '../signals.js';
import { CHANNEL_SETTINGS, hintsOf } from './channel-settings.js';
import { pollJob } from './channel-jobs.js';

/** Every channel's connector, by the spec's channel value. */
export type ChannelConnectors = Readonly<Record<ConnectableChannel, ChannelConnector>>;

/** How long a person waits for a connection's test, and for a vendor told where to deliver. */
const VENDOR_CALL_MS = 15_000;

export interface ChannelConnectionOptions {
  /** Where people and vendors reach Parley (read when a URL is made). */
  publicUrl: () => string;
  /**
   * The built-in SMTP listener's port as configured; null when it is off (PARLEY_MAIL_INBOUND_PORT unset).
   * The port a listener took in this process (0 asks for any) is told by {@link ChannelConnectionService.listeningForMail}.
   */
  mailInboundPort: number | null;
  signals: Signals;
}

export const isConnectable = (channel: string): channel is ConnectableChannel => (CONNECTABLE_CHANNELS as readonly string[]).includes(channel);

/** The sealed secrets of a connection open only in its own row (the context binds them to workspace and id). */
const sealingContext = (record: Pick<ChannelConnectionRecord, 'workspaceId' | 'id'>): string =>
  `channel-connection:${record.workspaceId}:${record.id}`;

/**
 * An agent's connections to channels: made, changed, tested and removed by owners and admins; their
 * secrets sealed before they are stored and never shown again, only hinted at. A connection that pulls
 * (a mailbox, Telegram without a webhook) has one poller job for as long as it is enabled.
 */
export class ChannelConnectionService {
  #mailInboundPort: number | null;

  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    private readonly connectors: ChannelConnectors,
    private readonly options: ChannelConnectionOptions,
  ) {
    this.#mailInboundPort = options.mailInboundPort;
  }

  /** The SMTP listener of this process took `port`: the port a mail connection's inboundUrl names from now on. */
  listeningForMail(port: number): void {
    this.#mailInboundPort = port;
  }

  async list(workspaceId: string, agentId: string): Promise<ChannelConnectionBody[]> {
    await findInWorkspace(this.store.agents, 'Agent', workspaceId, agentId);
    return (await this.store.channelConnections.forAgent(workspaceId, agentId)).map((record) => this.view(record));
  }

  async get(workspaceId: string, id: string): Promise<ChannelConnectionBody> {
    return this.view(await this.find(workspaceId, id));
  }

  async create(workspaceId: string, agentId: string, input: CreateChannelConnectionBody): Promise<ChannelConnectionBody> {
    await findInWorkspace(this.store.agents, 'Agent', workspaceId, agentId);
    const channel = normalizeChannel(input.channel as ChannelInput);
    if (!isConnectable(channel))
      throw invalid(`Channel ${input.channel} cannot be connected`, [{ field: 'channel', message: 'cannot be connected' }]);
    const { settings, secrets } = CHANNEL_SETTINGS[channel].read(input.config as Record<string, unknown>, {
      publicUrlIsHttps: this.publicUrlIsHttps(),
    });
    const at = now();
    const id = newId();
    const record: ChannelConnectionRecord = {
      id,
      workspaceId,
      agentId,
      channel,
      enabled: input.enabled ?? true,
      settings,
      sealedSecrets: this.box.seal(JSON.stringify(secrets), sealingContext({ workspaceId, id })),
      secretHints: hintsOf(secrets),
      cursor: null,
      lastInboundAt: null,
      lastOutboundAt: null,
      lastError: null,
      lastErrorAt: null,
      createdAt: at,
      updatedAt: at,
    };
    await this.claimAddress(record);
    if (!(await this.store.channelConnections.create(record))) {
      throw conflict(`The agent is already connected to ${channel}: change or delete that connection`);
    }
    return this.view(await this.started(record));
  }

  async update(workspaceId: string, id: string, changes: UpdateChannelConnectionBody): Promise<ChannelConnectionBody> {
    const record = await this.find(workspaceId, id);
    const connector = this.connectorOf(record);
    // A disabled connection frees its address (another may take it): switched on again, it claims it again.
    if (changes.enabled === true && !record.enabled && changes.config === undefined) await this.claimAddress(record);
    let updated = record;
    if (changes.config !== undefined) {
      const kept = { settings: record.settings, secrets: this.secretsOf(record) };
      const split = CHANNEL_SETTINGS[record.channel as ConnectableChannel].read(changes.config, { kept, publicUrlIsHttps: this.publicUrlIsHttps() });
      await this.claimAddress({ ...record, settings: split.settings });
      updated =
        (await this.store.channelConnections.update(
          workspaceId,
          id,
          {
            settings: split.settings,
            sealedSecrets: this.box.seal(JSON.stringify(split.secrets), sealingContext(record)),
            secretHints: hintsOf(split.secrets),
          },
          now(),
        )) ?? notFoundConnection(id);
    }
    if (changes.enabled !== undefined && changes.enabled !== updated.enabled) {
      updated = (await this.store.channelConnections.update(workspaceId, id, { enabled: changes.enabled }, now())) ?? notFoundConnection(id);
    }
    this.options.signals.channelConnectionChanged.notify(id);
    if (!updated.enabled) {
      if (record.enabled) await this.quietly(() => connector.deactivate(this.open(record), AbortSignal.timeout(VENDOR_CALL_MS)));
      return this.view(updated);
    }
    return this.view(await this.started(updated));
  }

  async delete(workspaceId: string, id: string): Promise<ChannelConnectionBody> {
    const record = await this.find(workspaceId, id);
    await this.store.channelConnections.delete(workspaceId, id);
    this.options.signals.channelConnectionChanged.notify(id);
    if (record.enabled) await this.quietly(() => this.connectorOf(record).deactivate(this.open(record), AbortSignal.timeout(VENDOR_CALL_MS)));
    return this.view(record);
  }

  /** Asks the vendor whether the settings work; the outcome is also the connection's status. */
  async test(workspaceId: string, id: string): Promise<ConnectionTestResultBody> {
    const record = await this.find(workspaceId, id);
    const started = Date.now();
    const check: ConnectionCheck = await this.connectorOf(record)
      .check(this.open(record), AbortSignal.timeout(VENDOR_CALL_MS))
      .catch(() => ({ ok: false, message: 'The test could not be run; try again' }));
    await this.store.channelConnections.record(workspaceId, id, { error: check.ok ? null : check.message, at: now() });
    const botUsername = check.details?.botUsername;
    if (check.ok && botUsername !== undefined && record.settings.botUsername !== botUsername) {
      await this.store.channelConnections.update(workspaceId, id, { settings: { ...record.settings, botUsername } }, now());
    }
    return { ok: check.ok, message: check.message, details: check.details ?? {}, durationMs: Date.now() - started };
  }

  /** The connection with its secrets opened, as its connector takes it. */
  open(record: ChannelConnectionRecord): ConnectorConnection {
    return { id: record.id, config: record.settings, secrets: this.secretsOf(record), inboundUrl: this.inboundUrlOf(record) };
  }

  connectorOf(record: Pick<ChannelConnectionRecord, 'channel'>): ChannelConnector {
    if (!isConnectable(record.channel)) throw new Error(`No connector for channel ${record.channel}`);
    return this.connectors[record.channel];
  }

  view(record: ChannelConnectionRecord): ChannelConnectionBody {
    const failing =
      record.lastErrorAt !== null && [record.lastInboundAt, record.lastOutboundAt].every((at) => at === null || at < record.lastErrorAt!);
    return {
      id: record.id,
      agentId: record.agentId,
      channel: record.channel as ConnectableChannel,
      status: !record.enabled ? 'disabled' : failing ? 'failing' : 'active',
      enabled: record.enabled,
      inboundUrl: this.inboundUrlOf(record),
      config: CHANNEL_SETTINGS[record.channel as ConnectableChannel].view(record.settings, record.secretHints),
      lastInboundAt: record.lastInboundAt,
      lastOutboundAt: record.lastOutboundAt,
      lastError: record.lastError,
      lastErrorAt: record.lastErrorAt,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  /**
   * Tells the vendor where to deliver and, for a connection that pulls, makes sure its poller runs; a
   * vendor's refusal is kept as the connection's last error, for the person to fix the settings.
   */
  private async started(record: ChannelConnectionRecord): Promise<ChannelConnectionRecord> {
    if (!record.enabled) return record;
    const connector = this.connectorOf(record);
    const connection = this.open(record);
    try {
      await connector.activate(connection, AbortSignal.timeout(VENDOR_CALL_MS));
      if (record.lastError !== null) await this.store.channelConnections.record(record.workspaceId, record.id, { error: null, at: now() });
    } catch (error) {
      const message = error instanceof ChannelError ? error.message : 'The channel could not be set up; try again';
      await this.store.channelConnections.record(record.workspaceId, record.id, { error: message, at: now() });
    }
    if (connector.pulls(connection)) {
      await this.store.jobs.ensureQueued(pollJob(record));
      this.options.signals.jobEnqueued.notify();
    }
    return (await this.store.channelConnections.find(record.workspaceId, record.id)) ?? record;
  }

  /**
   * Mail forwarded to the listener finds its connection by address alone: one address belongs to one
   * connection in the whole instance, so no workspace can take another's mail by naming its address.
   */
  private async claimAddress(record: ChannelConnectionRecord): Promise<void> {
    if (record.channel !== 'mail' || record.settings.inbound !== 'smtp') return;
    const others = await this.store.channelConnections.listEnabled(['mail']);
    if (others.some((other) => other.id !== record.id && other.settings.inbound === 'smtp' && other.settings.address === record.settings.address)) {
      throw conflict('Another connection already receives mail for this address');
    }
  }

  private secretsOf(record: ChannelConnectionRecord): Record<string, string> {
    return JSON.parse(this.box.open(record.sealedSecrets, sealingContext(record))) as Record<string, string>;
  }

  private inboundUrlOf(record: ChannelConnectionRecord): string | null {
    const base = this.options.publicUrl().replace(/\/+$/, '');
    if (record.channel === 'messenger_b') return record.settings.mode === 'webhook' ? `${base}/channels/${record.id}/inbound` : null;
    if (record.channel === 'team_chat') return `${base}/channels/${record.id}/inbound`;
    // Crisp's Website Hooks are not signed: the URL pasted in Crisp carries the connection's key.
    if (record.channel === 'helpdesk')
      return `${base}/channels/${record.id}/inbound?key=${encodeURIComponent(this.secretsOf(record).secretToken ?? '')}`;
    if (record.channel === 'messenger_a') return `${base}/channels/${record.id}/inbound`;
    if (record.channel === 'mail' && record.settings.inbound === 'smtp' && this.#mailInboundPort !== null) {
      return `smtp://${new URL(base).hostname}:${this.#mailInboundPort}`;
    }
    return null;
  }

  private publicUrlIsHttps(): boolean {
    return this.options.publicUrl().startsWith('https:');
  }

  private async find(workspaceId: string, id: string): Promise<ChannelConnectionRecord> {
    return findInWorkspace(this.store.channelConnections, 'Channel connection', workspaceId, id);
  }

  private async quietly(call: () => Promise<void>): Promise<void> {
    await call().catch(() => undefined);
  }
}

function notFoundConnection(id: string): never {
  throw notFound('Channel connection', id);
}
