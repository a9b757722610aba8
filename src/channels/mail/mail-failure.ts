import { BlockedUrlError } from '../../net/address-policy.js';
import { ChannelError } from '../connector.js';

/** What an IMAP or SMTP failure is, told apart by the codes imapflow, nodemailer and Node set. */
export type MailFailureKind = 'auth' | 'tls' | 'unreachable' | 'refused' | 'busy' | 'other';

interface CodedError {
  code?: unknown;
  responseCode?: unknown;
  authenticationFailed?: unknown;
  tlsFailed?: unknown;
  message?: unknown;
  cause?: unknown;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ETIMEOUT',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'ECONNECTION',
  'EDNS',
  'NoConnection',
  'EConnectionClosed',
]);

export function mailFailureKind(error: unknown): MailFailureKind {
  const coded = (typeof error === 'object' && error !== null ? error : {}) as CodedError;
  const code = typeof coded.code === 'string' ? coded.code : '';
  const message = typeof coded.message === 'string' ? coded.message : '';
  const responseCode = typeof coded.responseCode === 'number' ? coded.responseCode : 0;
  if (coded.authenticationFailed === true || code === 'EAUTH' || responseCode === 535) return 'auth';
  if (
    coded.tlsFailed === true ||
    code === 'ETLS' ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    /CERT|SELF_SIGNED|ClosedAfterConnectTLS/.test(code)
  ) {
    return 'tls';
  }
  if (/ssl|tls|certificate|wrong version number/i.test(message) && code !== 'EAUTH') return 'tls';
  if (responseCode >= 500) return 'refused';
  if (responseCode >= 400) return 'busy';
  if (UNREACHABLE.has(code) || code === 'ESOCKET') return 'unreachable';
  if (coded.cause !== undefined && coded.cause !== error) return mailFailureKind(coded.cause);
  return 'other';
}

/**
 * `error` in words for the inbox: which server, and whether the login, TLS or the network failed. Never the
 * server's raw answer (it may quote what was sent) and never a password; the original stays as the cause.
 */
export function mailFailure(service: 'IMAP' | 'SMTP', server: string, error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  // The outbound policy's own words already name the host and why it is not allowed.
  if (error instanceof BlockedUrlError) return new ChannelError(error.message, false, { cause: error });
  const kind = mailFailureKind(error);
  const responseCode = (error as CodedError | null)?.responseCode;
  switch (kind) {
    case 'auth':
      return new ChannelError(`The ${service} server ${server} refused the user name or password`, false, { cause: error });
    case 'tls':
      return new ChannelError(`TLS with the ${service} server ${server} failed (check the port and the secure setting)`, false, { cause: error });
    case 'unreachable':
      return new ChannelError(`The ${service} server ${server} cannot be reached`, true, { cause: error });
    case 'refused':
      return new ChannelError(`The ${service} server ${server} refused the message (${String(responseCode)})`, false, { cause: error });
    case 'busy':
      return new ChannelError(`The ${service} server ${server} asked to try again later (${String(responseCode)})`, true, { cause: error });
    default:
      return new ChannelError(
        `The ${service} server ${server} failed: ${(error as CodedError | null)?.code ? String((error as CodedError).code) : 'unexpected answer'}`,
        true,
        {
          cause: error,
        },
      );
  }
}
