import { describe, expect, it } from 'vitest';
import { CHANNEL_SETTINGS, hintsOf } from '../../src/domain/channel-connections/channel-settings.js';

const mail = CHANNEL_SETTINGS.mail;
const telegram = CHANNEL_SETTINGS.messenger_b;
const whatsApp = CHANNEL_SETTINGS.messenger_a;
const context = { publicUrlIsHttps: false };

describe('channel settings, split into settings and sealed secrets', () => {
  it('reads an e-mail connection with defaults, and keeps passwords out of the settings', () => {
    const split = mail.read(
      {
        address: 'Support@Example.com',
        inbound: 'imap',
        imap: { host: 'imap.example.com', user: 'support', password: 'imap-secret-1' },
        smtp: { host: 'smtp.example.com', port: 465, password: 'smtp-secret-2' },
      },
      context,
    );
    expect(split.settings).toEqual({
      address: 'support@example.com',
      name: null,
      inbound: 'imap',
      imap: { host: 'imap.example.com', port: 993, secure: true, user: 'support', mailbox: 'INBOX' },
      smtp: { host: 'smtp.example.com', port: 465, secure: true, user: null },
      aiReplies: false,
    });
    expect(split.secrets).toEqual({ imapPassword: 'imap-secret-1', smtpPassword: 'smtp-secret-2' });
    expect(JSON.stringify(split.settings)).not.toContain('secret');
    expect(JSON.stringify(mail.view(split.settings, hintsOf(split.secrets)))).not.toContain('secret-');
  });

  it('merges a change over what is kept: a secret left out stays, a part set to null goes', () => {
    const kept = mail.read(
      { address: 'a@example.com', inbound: 'imap', imap: { host: 'h', user: 'u', password: 'p1' }, smtp: { host: 's', password: 'p2' } },
      context,
    );
    const changed = mail.read({ imap: { host: 'h2' }, aiReplies: true }, { ...context, kept });
    expect(changed.settings).toMatchObject({ imap: { host: 'h2', user: 'u' }, smtp: { host: 's' }, aiReplies: true });
    expect(changed.secrets).toEqual({ imapPassword: 'p1', smtpPassword: 'p2' });

    const forwarded = mail.read({ inbound: 'smtp', imap: null, smtp: null }, { ...context, kept });
    expect(forwarded.settings).toMatchObject({ inbound: 'smtp', imap: null, smtp: null });
    expect(forwarded.secrets).toEqual({});
  });

  it('refuses an IMAP connection without its mailbox settings, naming the field', () => {
    expect(() => mail.read({ address: 'a@example.com', inbound: 'imap' }, context)).toThrow(/config\.imap/);
    expect(() => mail.read({ address: 'a@example.com', inbound: 'imap', imap: { host: 'h', user: 'u' } }, context)).toThrow(/password/);
  });

  it('keeps Telegram’s webhook secret across changes, forgets the bot’s name with a new token, and never hints the secret', () => {
    const first = telegram.read({ botToken: '123:first-token-abcdefgh' }, { publicUrlIsHttps: true });
    expect(first.settings).toMatchObject({ mode: 'webhook', apiBaseUrl: 'https://api.telegram.org', botUsername: null });
    expect(first.secrets.secretToken).toMatch(/^[\w-]{43}$/);
    const named = { ...first, settings: { ...first.settings, botUsername: 'shop_bot' } };
    const polling = telegram.read({ mode: 'polling' }, { publicUrlIsHttps: true, kept: named });
    expect(polling.settings).toMatchObject({ mode: 'polling', botUsername: 'shop_bot' });
    expect(polling.secrets).toEqual(first.secrets);
    const retokened = telegram.read({ botToken: '456:second-token-abcdefgh' }, { publicUrlIsHttps: true, kept: named });
    expect(retokened.settings).toMatchObject({ botUsername: null });
    expect(retokened.secrets.secretToken).toBe(first.secrets.secretToken);
    expect(Object.keys(hintsOf(first.secrets))).toEqual(['botToken']);
    expect(telegram.read({ botToken: 'x:y-abcdefghijkl' }, context).settings.mode).toBe('polling');
  });

  it('reads WhatsApp: the token and app secret sealed, a verify token made and kept, the template dropped with null', () => {
    const first = whatsApp.read({ phoneNumberId: '1065', accessToken: 'EAAG-token-1', appSecret: 'app-secret-1' }, context);
    expect(first.secrets).toEqual({ accessToken: 'EAAG-token-1', appSecret: 'app-secret-1' });
    expect(first.settings).toMatchObject({ phoneNumberId: '1065', graphApiBaseUrl: 'https://graph.facebook.com/v27.0', templateName: null });
    expect(first.settings.verifyToken).toMatch(/^[\w-]{32}$/);
    expect(JSON.stringify(whatsApp.view(first.settings, hintsOf(first.secrets)))).not.toMatch(/token-1|secret-1/);

    const templated = whatsApp.read(
      { templateName: 'reply_waiting', templateLanguage: 'en_US', accessToken: 'EAAG-token-2' },
      { ...context, kept: first },
    );
    expect(templated.settings).toMatchObject({ verifyToken: first.settings.verifyToken, templateName: 'reply_waiting', templateLanguage: 'en_US' });
    expect(templated.secrets).toEqual({ accessToken: 'EAAG-token-2', appSecret: 'app-secret-1' });
    expect(whatsApp.read({ templateName: null }, { ...context, kept: templated }).settings).toMatchObject({
      templateName: null,
      templateLanguage: null,
    });
    expect(() => whatsApp.read({ templateName: 'reply_waiting' }, { ...context, kept: first })).toThrow(/templateLanguage/);
    expect(() => whatsApp.read({ phoneNumberId: '1065' }, context)).toThrow(/config\.accessToken, config\.appSecret are required/);
  });
});
