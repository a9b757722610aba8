import type { Channel } from '../../../../src/contract/channels';

/**
 * The channels a conversation takes place in (the API's `channel`), as people read them: the spec's
 * messenger values by the vendor Parley connects them to (`CHANNEL_ALIASES` in the contract).
 */
export const CHANNEL_LABELS: Readonly<Record<Channel, string>> = {
  website: 'Website',
  api: 'API',
  dashboard: 'Dashboard',
  mail: 'E-mail',
  form: 'Form',
  messenger_a: 'WhatsApp',
  messenger_b: 'Telegram',
  team_chat: 'Slack',
  helpdesk: 'Crisp',
  automation: 'Automation',
};

/** A channel's name for people; a value this dashboard does not know is shown as it is. */
export const channelLabel = (channel: string): string => (CHANNEL_LABELS as Readonly<Record<string, string>>)[channel] ?? channel;
