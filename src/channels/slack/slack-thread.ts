/**
 * A Slack thread as Parley's `channelExternalId`: the channel alone (a direct message's own flow, a slash
 * command's channel) or the channel and the `ts` of the thread's first message, joined by a colon. Slack's
 * channel ids are letters and digits and a `ts` is digits and a dot, so the colon is never part of either.
 */
export interface SlackThread {
  channel: string;
  /** The thread's first message (`thread_ts` when posting into it); absent: top level of the channel. */
  threadTs?: string;
}

const CHANNEL = /^[A-Z][A-Z0-9]{1,39}$/;
const TS = /^\d{1,12}\.\d{1,8}$/;

export const isSlackChannelId = (value: unknown): value is string => typeof value === 'string' && CHANNEL.test(value);
export const isSlackTs = (value: unknown): value is string => typeof value === 'string' && TS.test(value);

export function slackThreadId(thread: SlackThread): string {
  return thread.threadTs === undefined ? thread.channel : `${thread.channel}:${thread.threadTs}`;
}

/** The thread a `channelExternalId` names, or undefined when it is not one of {@link slackThreadId}'s. */
export function parseSlackThreadId(id: string): SlackThread | undefined {
  const [channel, threadTs, ...rest] = id.split(':');
  if (!isSlackChannelId(channel) || rest.length > 0) return undefined;
  if (threadTs === undefined) return { channel };
  return isSlackTs(threadTs) ? { channel, threadTs } : undefined;
}
