import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './json-schema.js';

/** An agent's connections to the channels people write from (e-mail, Telegram, Slack, Crisp, WhatsApp), as the API answers them and takes them. */

/** The channels a connection can be made to, by the spec's value; their vendor names are accepted too (`email`, `telegram`, `slack`, `crisp`, `whatsapp`). */
export const CONNECTABLE_CHANNELS = ['mail', 'messenger_b', 'team_chat', 'helpdesk', 'messenger_a'] as const;

export type ConnectableChannel = (typeof CONNECTABLE_CHANNELS)[number];

export const CONNECTABLE_CHANNEL_INPUTS = [...CONNECTABLE_CHANNELS, 'email', 'telegram', 'slack', 'crisp', 'whatsapp'] as const;

const Secret = (description: string) =>
  Type.String({ minLength: 1, maxLength: 4096, description: `${description} (write-only: answers show a hint)` });
const Hint = (description: string) => Nullable(Type.String({ description: `${description}: its first and last characters, never the secret` }));
const Host = Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.:\\[\\]-]+$', description: 'Host name or address' });
const Port = Type.Integer({ minimum: 1, maximum: 65_535 });
const MailAddress = Type.String({ format: 'email', maxLength: 320, description: 'The address people write to' });

export const TELEGRAM_MODES = ['webhook', 'polling'] as const;

/** Telegram's settings as given. */
export const TelegramConfigInput = Type.Object(
  {
    botToken: Secret('The token @BotFather gave the bot'),
    mode: Type.Optional(
      StringEnum(TELEGRAM_MODES, {
        description:
          'webhook: Telegram calls the connection’s inboundUrl (needs PARLEY_PUBLIC_URL on https); polling: Parley asks Telegram for updates. ' +
          'Default: webhook when the public URL is https, else polling',
      }),
    ),
    apiBaseUrl: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: 'The Bot API server (default https://api.telegram.org): a self-hosted one, or a test server',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TelegramConfig = Type.Object({
  botTokenHint: Hint('The bot token'),
  mode: StringEnum(TELEGRAM_MODES),
  apiBaseUrl: Type.String(),
  botUsername: Nullable(Type.String({ description: 'The bot’s @username, as Telegram told it at the last test or connection' })),
});

/** The Graph API's root with its version, as Meta's documentation names it. */
export const WHATSAPP_GRAPH_API = 'https://graph.facebook.com/v27.0';

const TemplateName = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[a-z0-9_]+$',
  description: 'An approved message template (no variables) sent when the person last wrote more than 24 hours ago',
});
const TemplateLanguage = Type.String({
  minLength: 2,
  maxLength: 15,
  pattern: '^[A-Za-z]{2,3}(_[A-Za-z0-9]{2,8})?$',
  description: 'The template’s language code, e.g. en_US',
});

/** WhatsApp Cloud API's settings as given. */
export const WhatsAppConfigInput = Type.Object(
  {
    phoneNumberId: Type.String({
      minLength: 1,
      maxLength: 32,
      pattern: '^[0-9]+$',
      description: 'The business phone number’s id (WhatsApp Manager, API Setup)',
    }),
    accessToken: Secret('A system user’s permanent access token with whatsapp_business_messaging'),
    appSecret: Secret('The Meta app’s secret (App settings, Basic): every delivery is signed with it'),
    verifyToken: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 200,
        pattern: '^[\\x21-\\x7e]+$',
        description:
          'What Meta sends back when it checks the callback URL; default: one Parley makes. Shown to owners and admins: it guards nothing but that check',
      }),
    ),
    graphApiBaseUrl: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: `The Graph API with its version (default ${WHATSAPP_GRAPH_API}), or a test server`,
      }),
    ),
    templateName: Type.Optional(TemplateName),
    templateLanguage: Type.Optional(TemplateLanguage),
  },
  { additionalProperties: false },
);

export const WhatsAppConfig = Type.Object({
  phoneNumberId: Type.String(),
  accessTokenHint: Hint('The access token'),
  appSecretHint: Hint('The app secret'),
  verifyToken: Type.String({ description: 'The verify token to paste at Meta beside the callback URL (the connection’s inboundUrl)' }),
  graphApiBaseUrl: Type.String(),
  templateName: Nullable(Type.String()),
  templateLanguage: Nullable(Type.String()),
});

/** Slack's settings as given: a Slack app's bot token and signing secret. */
export const SlackConfigInput = Type.Object(
  {
    botToken: Type.String({
      minLength: 6,
      maxLength: 4096,
      pattern: '^xoxb-',
      description: 'The app’s Bot User OAuth Token (`xoxb-…`, OAuth & Permissions) (write-only: answers show a hint)',
    }),
    signingSecret: Secret('The app’s Signing Secret (Basic Information), which signs every request Slack sends'),
    apiBaseUrl: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: 'The Web API’s base (default https://slack.com/api/): a test server',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SlackConfig = Type.Object({
  botTokenHint: Hint('The bot token'),
  signingSecretHint: Hint('The signing secret'),
  apiBaseUrl: Type.String(),
  botUsername: Nullable(Type.String({ description: 'The bot user’s name, as Slack told it at the last test or connection' })),
});

const ImapInput = Type.Object(
  {
    host: Host,
    port: Type.Optional(Port),
    secure: Type.Optional(Type.Boolean({ description: 'TLS from the start (port 993); false: STARTTLS when offered. Default true' })),
    user: Type.String({ minLength: 1, maxLength: 320 }),
    password: Secret('The mailbox password'),
    mailbox: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Default INBOX' })),
  },
  { additionalProperties: false },
);

const SmtpInput = Type.Object(
  {
    host: Host,
    port: Type.Optional(Port),
    secure: Type.Optional(Type.Boolean({ description: 'TLS from the start (port 465); false: STARTTLS when offered. Default: true on 465' })),
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    password: Type.Optional(Secret('The SMTP password')),
  },
  { additionalProperties: false },
);

export const MAIL_INBOUND = ['smtp', 'imap'] as const;

/** E-mail's settings as given. */
export const MailConfigInput = Type.Object(
  {
    address: MailAddress,
    name: Type.Optional(Type.String({ maxLength: 200, description: 'The name replies are sent under (default: the agent’s)' })),
    inbound: StringEnum(MAIL_INBOUND, {
      description: 'smtp: mail forwarded to Parley’s own SMTP listener (PARLEY_MAIL_INBOUND_PORT); imap: Parley reads a mailbox',
    }),
    imap: Type.Optional(ImapInput),
    smtp: Type.Optional(SmtpInput),
    aiReplies: Type.Optional(Type.Boolean({ description: 'Whether the agent answers mail by itself; default false: mail waits for a person' })),
  },
  { additionalProperties: false },
);

export const MailConfig = Type.Object({
  address: Type.String(),
  name: Nullable(Type.String()),
  inbound: StringEnum(MAIL_INBOUND),
  imap: Nullable(
    Type.Object({
      host: Type.String(),
      port: Port,
      secure: Type.Boolean(),
      user: Type.String(),
      passwordHint: Hint('The password'),
      mailbox: Type.String(),
    }),
  ),
  smtp: Nullable(
    Type.Object({ host: Type.String(), port: Port, secure: Type.Boolean(), user: Nullable(Type.String()), passwordHint: Hint('The password') }),
  ),
  aiReplies: Type.Boolean(),
});

/** Crisp's settings as given: the website, a plugin token of the production tier, and the plugin's hook secret if its hooks are used. */
export const CrispConfigInput = Type.Object(
  {
    websiteId: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'The Crisp website’s identifier (Settings → Website settings → Setup instructions)',
    }),
    identifier: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '^[A-Za-z0-9-]+$',
      description: 'The plugin token’s identifier (Crisp Marketplace → your plugin → Tokens, production)',
    }),
    key: Secret('The plugin token’s key'),
    signingSecret: Type.Optional(
      Secret(
        'The plugin’s Web Hooks signing secret (Marketplace → your plugin → Settings → Events), when Plugin Hooks deliver: every delivery must then be signed with it',
      ),
    ),
    apiBaseUrl: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 2000,
        description: 'Crisp’s REST API (default https://api.crisp.chat/v1), or a test server',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CrispConfig = Type.Object({
  websiteId: Type.String(),
  identifier: Type.String(),
  keyHint: Hint('The token key'),
  signingSecretHint: Hint('The hook signing secret'),
  apiBaseUrl: Type.String(),
});

export const CONNECTION_STATUSES = ['active', 'failing', 'disabled'] as const;

export const ChannelConnection = Type.Object({
  id: Type.String(),
  agentId: Type.String(),
  channel: StringEnum(CONNECTABLE_CHANNELS),
  status: StringEnum(CONNECTION_STATUSES, {
    description: 'active: messages come and go; failing: the last attempt to receive or send failed (see lastError); disabled: switched off',
  }),
  enabled: Type.Boolean(),
  inboundUrl: Nullable(
    Type.String({ description: 'What the vendor is given to deliver to (a webhook, a forwarding address); null when there is nothing to paste' }),
  ),
  config: Type.Union([TelegramConfig, MailConfig, SlackConfig, CrispConfig, WhatsAppConfig], {
    description: 'The settings, secrets replaced by hints',
  }),
  lastInboundAt: Nullable(Timestamp('When the last message came in')),
  lastOutboundAt: Nullable(Timestamp('When the last message went out')),
  lastError: Nullable(Type.String({ description: 'What went wrong last, in Parley’s words' })),
  lastErrorAt: Nullable(Timestamp('When')),
  createdAt: Timestamp('When the connection was made'),
  updatedAt: Timestamp('Last change'),
});

export type ChannelConnectionBody = Static<typeof ChannelConnection>;

export const CreateChannelConnection = Type.Object(
  {
    channel: StringEnum(CONNECTABLE_CHANNEL_INPUTS, { description: 'The spec’s value or the vendor’s name' }),
    config: Type.Union([TelegramConfigInput, MailConfigInput, SlackConfigInput, CrispConfigInput, WhatsAppConfigInput]),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type CreateChannelConnectionBody = Static<typeof CreateChannelConnection>;

/** What a change may name of an e-mail connection: any field; `imap` or `smtp` null drops that part. */
const MailConfigChanges = Type.Object(
  {
    address: Type.Optional(MailAddress),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    inbound: Type.Optional(StringEnum(MAIL_INBOUND)),
    imap: Type.Optional(Nullable(Type.Partial(ImapInput))),
    smtp: Type.Optional(Nullable(Type.Partial(SmtpInput))),
    aiReplies: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** What a change may name of a WhatsApp connection: any field; `templateName` null drops the template. */
const WhatsAppConfigChanges = Type.Object(
  {
    ...Type.Partial(Type.Omit(WhatsAppConfigInput, ['templateName', 'templateLanguage'])).properties,
    templateName: Type.Optional(Nullable(TemplateName)),
    templateLanguage: Type.Optional(Nullable(TemplateLanguage)),
  },
  { additionalProperties: false },
);

export const UpdateChannelConnection = Type.Object(
  {
    config: Type.Optional(
      Type.Union(
        [Type.Partial(TelegramConfigInput), MailConfigChanges, Type.Partial(SlackConfigInput), Type.Partial(CrispConfigInput), WhatsAppConfigChanges],
        {
          description: 'Fields to change, as in the create body; a secret left out stays as it is',
        },
      ),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export type UpdateChannelConnectionBody = Static<typeof UpdateChannelConnection>;

export const ConnectionTestResult = Type.Object({
  ok: Type.Boolean(),
  message: Type.String(),
  details: Type.Record(Type.String(), Type.String()),
  durationMs: Type.Integer(),
});

export type ConnectionTestResultBody = Static<typeof ConnectionTestResult>;

export type TelegramConfigInputBody = Static<typeof TelegramConfigInput>;
export type MailConfigInputBody = Static<typeof MailConfigInput>;
export type TelegramConfigBody = Static<typeof TelegramConfig>;
export type MailConfigBody = Static<typeof MailConfig>;
export type SlackConfigInputBody = Static<typeof SlackConfigInput>;
export type SlackConfigBody = Static<typeof SlackConfig>;
export type CrispConfigInputBody = Static<typeof CrispConfigInput>;
export type CrispConfigBody = Static<typeof CrispConfig>;
export type WhatsAppConfigInputBody = Static<typeof WhatsAppConfigInput>;
export type WhatsAppConfigChangesBody = Static<typeof WhatsAppConfigChanges>;
export type WhatsAppConfigBody = Static<typeof WhatsAppConfig>;

/**
 * How a message that goes out through a channel fared: null for messages that stay in Parley; delivered
 * and read where the vendor reports them (WhatsApp).
 */
export const DELIVERY_STATES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;

export type DeliveryState = (typeof DELIVERY_STATES)[number];
