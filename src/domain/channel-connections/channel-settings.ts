import { randomBytes } from 'node:crypto';
import {
  WHATSAPP_GRAPH_API,
  type ConnectableChannel,
  type CrispConfigBody,
  type CrispConfigInputBody,
  type MailConfigBody,
  type MailConfigInputBody,
  type SlackConfigBody,
  type SlackConfigInputBody,
  type TelegramConfigBody,
  type TelegramConfigInputBody,
  type WhatsAppConfigBody,
  type WhatsAppConfigChangesBody,
} from '../../contract/channel-connections.js';
import { invalid } from '../../errors.js';
import { hintOf } from '../model-providers.js';

/**
 * A connection's configuration split the way it is kept: settings in plain JSON, secrets sealed, a hint of
 * each secret for people. Each channel says how its input is read, how a change merges into what is kept,
 * and how the settings are shown.
 */
export interface SplitConfig {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}

export const TELEGRAM_API = 'https://api.telegram.org';
export const SLACK_API = 'https://slack.com/api/';
export const CRISP_API = 'https://api.crisp.chat/v1';

interface Kept {
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
}

interface ChannelSettings {
  /** The input of a create, or of a change merged over what is kept (`kept` then set). */
  read(input: Record<string, unknown>, context: { kept?: Kept; publicUrlIsHttps: boolean }): SplitConfig;
  /** The settings as the API shows them, secrets as hints. */
  view(
    settings: Record<string, unknown>,
    hints: Record<string, string>,
  ): TelegramConfigBody | MailConfigBody | SlackConfigBody | CrispConfigBody | WhatsAppConfigBody;
}

const telegram: ChannelSettings = {
  read(input, { kept, publicUrlIsHttps }) {
    const given = input as Partial<TelegramConfigInputBody>;
    const before = kept?.settings as Partial<TelegramConfigBody> | undefined;
    const botToken = given.botToken ?? kept?.secrets.botToken;
    if (botToken === undefined) throw invalid('config.botToken is required', [{ field: 'config.botToken', message: 'is required' }]);
    return {
      settings: {
        mode: given.mode ?? before?.mode ?? (publicUrlIsHttps ? 'webhook' : 'polling'),
        apiBaseUrl: (given.apiBaseUrl ?? before?.apiBaseUrl ?? TELEGRAM_API).replace(/\/+$/, ''),
        // A new token may be another bot: its name is learnt again.
        botUsername: given.botToken === undefined ? (before?.botUsername ?? null) : null,
      },
      // The secret Telegram sends back with every update, made by us; kept across changes so deliveries in flight still verify.
      secrets: { botToken, secretToken: kept?.secrets.secretToken ?? randomBytes(32).toString('base64url') },
    };
  },
  view(settings, hints) {
    const kept = settings as Omit<TelegramConfigBody, 'botTokenHint'>;
    return { botTokenHint: hints.botToken ?? null, mode: kept.mode, apiBaseUrl: kept.apiBaseUrl, botUsername: kept.botUsername ?? null };
  },
};

type MailSettings = Omit<MailConfigBody, 'imap' | 'smtp'> & {
  imap: Omit<NonNullable<MailConfigBody['imap']>, 'passwordHint'> | null;
  smtp: Omit<NonNullable<MailConfigBody['smtp']>, 'passwordHint'> | null;
};

const mail: ChannelSettings = {
  read(input, { kept }) {
    const given = input as Partial<MailConfigInputBody>;
    const before = kept?.settings as MailSettings | undefined;
    const inbound = given.inbound ?? before?.inbound;
    const address = given.address ?? before?.address;
    if (address === undefined || inbound === undefined) {
      throw invalid('config.address and config.inbound are required', [
        ...(address === undefined ? [{ field: 'config.address', message: 'is required' }] : []),
        ...(inbound === undefined ? [{ field: 'config.inbound', message: 'is required' }] : []),
      ]);
    }
    const secrets: Record<string, string> = {};
    // A change may drop a part with null (no more own SMTP server, forwarding instead of a mailbox).
    const dropped = (part: 'imap' | 'smtp') => part in input && input[part] === null;
    let imap: MailSettings['imap'] = null;
    if (!dropped('imap') && (given.imap !== undefined || before?.imap)) {
      const imapGiven = { ...before?.imap, ...given.imap };
      const password = given.imap?.password ?? kept?.secrets.imapPassword;
      if (imapGiven.host === undefined || imapGiven.user === undefined || password === undefined) {
        throw invalid('config.imap needs host, user and password', [{ field: 'config.imap', message: 'needs host, user and password' }]);
      }
      const secure = imapGiven.secure ?? true;
      imap = {
        host: imapGiven.host,
        port: imapGiven.port ?? (secure ? 993 : 143),
        secure,
        user: imapGiven.user,
        mailbox: imapGiven.mailbox ?? 'INBOX',
      };
      secrets.imapPassword = password;
    }
    if (inbound === 'imap' && imap === null) {
      throw invalid('config.imap is required when inbound is imap', [{ field: 'config.imap', message: 'is required when inbound is imap' }]);
    }
    let smtp: MailSettings['smtp'] = null;
    if (!dropped('smtp') && (given.smtp !== undefined || before?.smtp)) {
      const smtpGiven = { ...before?.smtp, ...given.smtp };
      if (smtpGiven.host === undefined) throw invalid('config.smtp.host is required', [{ field: 'config.smtp.host', message: 'is required' }]);
      const port = smtpGiven.port ?? 587;
      smtp = { host: smtpGiven.host, port, secure: smtpGiven.secure ?? port === 465, user: smtpGiven.user ?? null };
      const password = given.smtp?.password ?? kept?.secrets.smtpPassword;
      if (password !== undefined) secrets.smtpPassword = password;
    }
    const settings: MailSettings = {
      address: address.toLowerCase(),
      name: given.name ?? before?.name ?? null,
      inbound,
      imap,
      smtp,
      aiReplies: given.aiReplies ?? before?.aiReplies ?? false,
    };
    return { settings: { ...settings }, secrets };
  },
  view(settings, hints) {
    const kept = settings as MailSettings;
    return {
      ...kept,
      imap: kept.imap && { ...kept.imap, passwordHint: hints.imapPassword ?? null },
      smtp: kept.smtp && { ...kept.smtp, passwordHint: hints.smtpPassword ?? null },
    };
  },
};

const slack: ChannelSettings = {
  read(input, { kept }) {
    const given = input as Partial<SlackConfigInputBody>;
    const before = kept?.settings as Partial<SlackConfigBody> | undefined;
    const botToken = given.botToken ?? kept?.secrets.botToken;
    const signingSecret = given.signingSecret ?? kept?.secrets.signingSecret;
    if (botToken === undefined || signingSecret === undefined) {
      throw invalid('config.botToken and config.signingSecret are required', [
        ...(botToken === undefined ? [{ field: 'config.botToken', message: 'is required' }] : []),
        ...(signingSecret === undefined ? [{ field: 'config.signingSecret', message: 'is required' }] : []),
      ]);
    }
    const apiBaseUrl = given.apiBaseUrl ?? before?.apiBaseUrl ?? SLACK_API;
    return {
      // The Web API's methods are named after its base: it ends in '/'.
      settings: {
        apiBaseUrl: apiBaseUrl.endsWith('/') ? apiBaseUrl : `${apiBaseUrl}/`,
        botUsername: given.botToken === undefined ? (before?.botUsername ?? null) : null,
      },
      secrets: { botToken, signingSecret },
    };
  },
  view(settings, hints) {
    const kept = settings as Omit<SlackConfigBody, 'botTokenHint' | 'signingSecretHint'>;
    return {
      botTokenHint: hints.botToken ?? null,
      signingSecretHint: hints.signingSecret ?? null,
      apiBaseUrl: kept.apiBaseUrl,
      botUsername: kept.botUsername ?? null,
    };
  },
};

const crisp: ChannelSettings = {
  read(input, { kept }) {
    const given = input as Partial<CrispConfigInputBody>;
    const before = kept?.settings as Omit<CrispConfigBody, 'keyHint' | 'signingSecretHint'> | undefined;
    const websiteId = given.websiteId ?? before?.websiteId;
    const identifier = given.identifier ?? before?.identifier;
    const key = given.key ?? kept?.secrets.key;
    const missing = (['websiteId', 'identifier', 'key'] as const).filter((field) => ({ websiteId, identifier, key })[field] === undefined);
    if (websiteId === undefined || identifier === undefined || key === undefined) {
      throw invalid(
        `config.${missing.join(', config.')} required`,
        missing.map((field) => ({ field: `config.${field}`, message: 'is required' })),
      );
    }
    const signingSecret = given.signingSecret ?? kept?.secrets.signingSecret;
    return {
      settings: { websiteId, identifier, apiBaseUrl: (given.apiBaseUrl ?? before?.apiBaseUrl ?? CRISP_API).replace(/\/+$/, '') },
      // The hook URL's key, made by us: kept across changes so that the URL pasted in Crisp goes on working.
      secrets: {
        key,
        secretToken: kept?.secrets.secretToken ?? randomBytes(32).toString('base64url'),
        ...(signingSecret === undefined ? {} : { signingSecret }),
      },
    };
  },
  view(settings, hints) {
    const kept = settings as Omit<CrispConfigBody, 'keyHint' | 'signingSecretHint'>;
    return {
      websiteId: kept.websiteId,
      identifier: kept.identifier,
      keyHint: hints.key ?? null,
      signingSecretHint: hints.signingSecret ?? null,
      apiBaseUrl: kept.apiBaseUrl,
    };
  },
};

type WhatsAppSettings = Omit<WhatsAppConfigBody, 'accessTokenHint' | 'appSecretHint'>;

const whatsApp: ChannelSettings = {
  read(input, { kept }) {
    const given = input as WhatsAppConfigChangesBody;
    const before = kept?.settings as WhatsAppSettings | undefined;
    const phoneNumberId = given.phoneNumberId ?? before?.phoneNumberId;
    const accessToken = given.accessToken ?? kept?.secrets.accessToken;
    const appSecret = given.appSecret ?? kept?.secrets.appSecret;
    const missing = Object.entries({ phoneNumberId, accessToken, appSecret }).flatMap(([name, value]) => (value === undefined ? [name] : []));
    if (phoneNumberId === undefined || accessToken === undefined || appSecret === undefined) {
      throw invalid(
        `${missing.map((name) => `config.${name}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} required`,
        missing.map((name) => ({ field: `config.${name}`, message: 'is required' })),
      );
    }
    // null drops the template; left out, it stays.
    const templateName = given.templateName === undefined ? (before?.templateName ?? null) : given.templateName;
    const templateLanguage = given.templateLanguage === undefined ? (before?.templateLanguage ?? null) : given.templateLanguage;
    if (templateName !== null && templateLanguage === null) {
      throw invalid('config.templateLanguage is required with a template', [
        { field: 'config.templateLanguage', message: 'is required with templateName' },
      ]);
    }
    const settings: WhatsAppSettings = {
      phoneNumberId,
      // Pasted at Meta beside the callback URL, so shown; made by us unless given, and kept across changes so Meta's setting stays right.
      verifyToken: given.verifyToken ?? before?.verifyToken ?? randomBytes(24).toString('base64url'),
      graphApiBaseUrl: (given.graphApiBaseUrl ?? before?.graphApiBaseUrl ?? WHATSAPP_GRAPH_API).replace(/\/+$/, ''),
      templateName,
      templateLanguage: templateName === null ? null : templateLanguage,
    };
    return { settings: { ...settings }, secrets: { accessToken, appSecret } };
  },
  view(settings, hints) {
    const kept = settings as WhatsAppSettings;
    return { ...kept, accessTokenHint: hints.accessToken ?? null, appSecretHint: hints.appSecret ?? null };
  },
};

export const CHANNEL_SETTINGS: Readonly<Record<ConnectableChannel, ChannelSettings>> = {
  messenger_b: telegram,
  mail,
  team_chat: slack,
  helpdesk: crisp,
  messenger_a: whatsApp,
};

/** Hints of the secrets a person gave (the webhook secret we made is nobody's to see, not even as a hint). */
export const hintsOf = (secrets: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(secrets).flatMap(([name, value]) => (name === 'secretToken' ? [] : [[name, hintOf(value)]])));
