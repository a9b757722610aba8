import { BlockedUrlError } from '../../net/address-policy.js';
import { ChannelError } from '../connector.js';
import { networkReason, hostOf } from '../network-failure.js';
import { GraphApiError } from './graph-api.js';

/** The access token expired, was revoked or never was one. */
const ACCESS_TOKEN_REFUSED = 190;
/** More than 24 hours since the person last wrote: only a template message may go out. */
export const RE_ENGAGEMENT = 131047;
/** The number does not use WhatsApp, or its owner has not accepted WhatsApp's terms. */
const UNDELIVERABLE = 131026;

export const OUTSIDE_WINDOW =
  'The person last wrote more than 24 hours ago, and WhatsApp allows free-form replies only within 24 hours: ' +
  'set an approved template message (templateName) on the connection to write to them after that, or wait until they write again';

/** What a failure the Graph API or a status reported by its code means, in Parley's words; `said` is Meta's own detail. */
export function whatsAppErrorText(code: number | undefined, said: string | undefined): string {
  if (code === RE_ENGAGEMENT) return OUTSIDE_WINDOW;
  if (code === ACCESS_TOKEN_REFUSED) return 'WhatsApp refused the access token: it expired or was revoked; give the connection a new one';
  if (code === UNDELIVERABLE)
    return 'WhatsApp could not deliver the message: the number may not use WhatsApp, or its owner has not accepted WhatsApp’s terms';
  return `WhatsApp could not deliver the message${said === undefined ? '' : `: ${said}`}${code === undefined ? '' : ` (error ${code})`}`;
}

/**
 * A failed Graph API call as a {@link ChannelError}: rate limits and Meta's own failures are worth another try
 * later, refusals are not. The message never holds the access token (Meta's error text never echoes it, and
 * it is cut out all the same).
 */
export function toChannelError(error: unknown, action: string, graphApiBaseUrl: string, accessToken: string): ChannelError {
  if (error instanceof ChannelError) return error;
  const redact = (value: string | undefined) => value?.split(accessToken).join('<access token>');
  if (error instanceof GraphApiError) {
    const { code, status } = error;
    if (code === ACCESS_TOKEN_REFUSED || status === 401) {
      return new ChannelError('WhatsApp refused the access token: the access token was refused (expired, revoked or mistyped)', false);
    }
    if (error.rateLimited) {
      const wait = error.retryAfterSeconds === undefined ? '' : ` for ${error.retryAfterSeconds} s`;
      return new ChannelError(`WhatsApp asks to slow down${wait} before it will ${action}; Parley tries again`, true);
    }
    if (code === RE_ENGAGEMENT || code === UNDELIVERABLE) return new ChannelError(whatsAppErrorText(code, undefined), false);
    const said = redact(error.details ?? error.said);
    // Meta's "unknown" and "service unavailable" errors, and its 5xx answers, pass.
    if (status >= 500 || code === 1 || code === 2 || code === 131000) {
      return new ChannelError(`WhatsApp failed to ${action} (${code ?? status}); Parley tries again`, true);
    }
    return new ChannelError(
      `WhatsApp refused to ${action}${said === undefined ? '' : `: ${said}`}${code === undefined ? '' : ` (error ${code})`}`,
      false,
    );
  }
  const host = hostOf(graphApiBaseUrl);
  if (error instanceof BlockedUrlError) return new ChannelError(`Parley’s outbound policy does not allow connecting to ${host}`, false);
  return new ChannelError(`WhatsApp could not be reached at ${host}${networkReason(error)} to ${action}; Parley tries again`, true);
}
