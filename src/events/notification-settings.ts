import { NOTIFYING_EVENTS, type NotifyingEvent } from '../contract/events.js';
import { isJsonObject } from '../text/json-object.js';

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

/** The saved settings over the defaults; anything unknown or malformed in `saved` is ignored. */
export function notificationSettings(saved: Record<string, unknown>): NotificationSettings {
  const stored = isJsonObject(saved.notifications) ? saved.notifications : {};
  const notifications = Object.fromEntries(
    NOTIFYING_EVENTS.map((event) => {
      const audience = isJsonObject(stored[event]) ? stored[event] : {};
      const pick = (key: keyof Audience) => (typeof audience[key] === 'boolean' ? audience[key] : DEFAULT_AUDIENCE[event][key]);
      return [event, { admins: pick('admins'), customer: pick('customer') }];
    }),
  ) as Record<NotifyingEvent, Audience>;
  return { notifications };
}
