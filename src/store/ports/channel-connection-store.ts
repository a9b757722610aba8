/** Agents' connections to channels (a mailbox, a Telegram bot): settings, sealed secrets, and how they fare. */
import type { ScopedReads } from './owned-records.js';

export interface ChannelConnectionRecord {
  id: string;
  workspaceId: string;
  agentId: string;
  /** The spec's channel value (`mail`, `messenger_b`). */
  channel: string;
  enabled: boolean;
  /** The connector's settings, without secrets. */
  settings: Record<string, unknown>;
  /** The secrets (JSON, by name) sealed by the domain's secret box; never in clear. */
  sealedSecrets: string;
  /** What a person may see of each secret, by name. */
  secretHints: Record<string, string>;
  /** Where a pulling connection's next pass starts; opaque to the store. */
  cursor: string | null;
  lastInboundAt: string | null;
  lastOutboundAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ChannelConnectionChanges = Partial<Pick<ChannelConnectionRecord, 'enabled' | 'settings' | 'sealedSecrets' | 'secretHints'>>;

/** How a connection fared: a message in or out, or a failure (null clears the last error). */
export type ConnectionActivity = { inboundAt: string } | { outboundAt: string } | { error: string | null; at: string };

export interface ChannelConnectionStore extends ScopedReads<ChannelConnectionRecord> {
  /** False when the agent already has a connection to that channel. */
  create(connection: ChannelConnectionRecord): Promise<boolean>;
  update(workspaceId: string, id: string, changes: ChannelConnectionChanges, at: string): Promise<ChannelConnectionRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<ChannelConnectionRecord | undefined>;
  forAgent(workspaceId: string, agentId: string): Promise<ChannelConnectionRecord[]>;
  /** The agent's connection to `channel`, if it has one. */
  ofAgentChannel(workspaceId: string, agentId: string, channel: string): Promise<ChannelConnectionRecord | undefined>;
  /**
   * A connection by id, whichever workspace it belongs to: inbound deliveries name only the connection
   * (its URL), and are verified by the connection's own secret before anything is read or written.
   */
  findAnywhere(id: string): Promise<ChannelConnectionRecord | undefined>;
  /** Every enabled connection of `channels`, in every workspace: what the pollers and the mail listener serve. */
  listEnabled(channels: readonly string[]): Promise<ChannelConnectionRecord[]>;
  saveCursor(workspaceId: string, id: string, cursor: string | null): Promise<void>;
  record(workspaceId: string, id: string, activity: ConnectionActivity): Promise<void>;
}
