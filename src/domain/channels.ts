import { CHANNEL_ALIASES, type Channel, type ChannelInput } from '../contract/channels.js';
import { unalias } from './vendor-aliases.js';

export type { Channel, ChannelInput };

export const normalizeChannel = (channel: ChannelInput): Channel => unalias<typeof CHANNEL_ALIASES, Channel>(CHANNEL_ALIASES, channel);
