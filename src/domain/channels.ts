/** Where conversations happen: the spec's channel values (compat-notes). */
export const CHANNELS = [
  'dashboard',
  'website',
  'api',
  'mail',
  'form',
  'messenger_a',
  'messenger_b',
  'team_chat',
  'helpdesk',
  'automation',
] as const;

export type Channel = (typeof CHANNELS)[number];

/** What clients may send: the channels plus `email`, an older spelling of `mail`. */
export const CHANNEL_INPUTS = [...CHANNELS, 'email'] as const;

export type ChannelInput = (typeof CHANNEL_INPUTS)[number];

export const normalizeChannel = (channel: ChannelInput): Channel => (channel === 'email' ? 'mail' : channel);
