/** Where conversations happen: the API's channel values, and the hosted service's names clients also send. */
export const CHANNELS = ['dashboard', 'website', 'api', 'mail', 'form', 'messenger_a', 'messenger_b', 'team_chat', 'helpdesk', 'automation'] as const;

export type Channel = (typeof CHANNELS)[number];

/** The hosted service's channel names clients send, by the spec's channel they mean (`email` is an older spelling of `mail`). */
export const CHANNEL_ALIASES = {
  whatsapp: 'messenger_a',
  telegram: 'messenger_b',
  slack: 'team_chat',
  crisp: 'helpdesk',
  zapier: 'automation',
  email: 'mail',
} as const;

/** What clients may send: the channels plus the hosted service's names for them. */
export const CHANNEL_INPUTS = [...CHANNELS, ...(Object.keys(CHANNEL_ALIASES) as (keyof typeof CHANNEL_ALIASES)[])] as const;

export type ChannelInput = (typeof CHANNEL_INPUTS)[number];
