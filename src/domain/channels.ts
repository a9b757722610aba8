import { CHANNEL_ALIASES, unalias } from './vendor-aliases.js';

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

/** What clients may send: the channels plus the hosted service's names for them (vendor-aliases.ts). */
export const CHANNEL_INPUTS = [...CHANNELS, ...(Object.keys(CHANNEL_ALIASES) as (keyof typeof CHANNEL_ALIASES)[])] as const;

export type ChannelInput = (typeof CHANNEL_INPUTS)[number];

export const normalizeChannel = (channel: ChannelInput): Channel => unalias<typeof CHANNEL_ALIASES, Channel>(CHANNEL_ALIASES, channel);
