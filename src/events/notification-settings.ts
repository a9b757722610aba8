import { NOTIFYING_EVENTS, type NotifyingEvent } from './event-types.js';

/** Who hears of one event by e-mail. */
export interface Audience {
  /** The workspace's owners and admins. */
  admins: boolean;
  /** The conversation's contact, when it left an e-mail address. */
  customer: boolean;
}

export interface NotificationSettings {
  notifications: Record<NotifyingEvent, Audience>;
}

/** A person asking for a human is what administrators most need to hear of; customers opt in. */
const DEFAULT_AUDIENCE: Readonly<Record<NotifyingEvent, Audience>> = {
  'conversation-resolved': { admins: false, customer: false },
  'human-requested': { admins: true, customer: false },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The saved settings over the defaults; anything unknown or malformed in `saved` is ignored. */
export function notificationSettings(saved: Record<string, unknown>): NotificationSettings {
  const stored = isRecord(saved.notifications) ? saved.notifications : {};
  const notifications = Object.fromEntries(
    NOTIFYING_EVENTS.map((event) => {
      const audience = isRecord(stored[event]) ? stored[event] : {};
      const pick = (key: keyof Audience) => (typeof audience[key] === 'boolean' ? audience[key] : DEFAULT_AUDIENCE[event][key]);
      return [event, { admins: pick('admins'), customer: pick('customer') }];
    }),
  ) as Record<NotifyingEvent, Audience>;
  return { notifications };
}
