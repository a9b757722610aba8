import type { NotifyingEvent } from '../contract/events.js';
import { notificationSettings, type Audience, type NotificationSettings } from '../events/notification-settings.js';
import type { DeliveryRecord, Store } from '../store/store.js';
import { DELIVERY_LOG_LIMIT } from './webhooks.js';

export interface WorkspaceSettings extends NotificationSettings {
  /** Whether this Parley can send e-mail at all (an SMTP server is configured); read-only. */
  emailEnabled: boolean;
}

export type SettingsChanges = { notifications?: Partial<Record<NotifyingEvent, Partial<Audience>>> };

/** Who a workspace notifies by e-mail of which conversation event, and the log of those e-mails. */
export class NotificationService {
  constructor(
    private readonly store: Store,
    private readonly emailEnabled: boolean,
  ) {}

  async get(workspaceId: string): Promise<WorkspaceSettings> {
    return { ...notificationSettings(await this.store.workspaces.settings(workspaceId)), emailEnabled: this.emailEnabled };
  }

  /** Merges `changes` field by field: an event or audience left out keeps its value. */
  async update(workspaceId: string, changes: SettingsChanges): Promise<WorkspaceSettings> {
    const saved = await this.store.workspaces.settings(workspaceId);
    const current = notificationSettings(saved);
    const notifications = { ...current.notifications };
    for (const [event, audience] of Object.entries(changes.notifications ?? {}) as [NotifyingEvent, Partial<Audience>][]) {
      notifications[event] = { ...notifications[event], ...audience };
    }
    await this.store.workspaces.saveSettings(workspaceId, { ...saved, notifications });
    return { notifications, emailEnabled: this.emailEnabled };
  }

  /** The latest notification e-mails, newest first, with their attempts. */
  emailLog(workspaceId: string): Promise<DeliveryRecord[]> {
    return this.store.deliveries.list(workspaceId, { channel: 'email', limit: DELIVERY_LOG_LIMIT });
  }
}
