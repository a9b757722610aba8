import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelError, UnverifiedDeliveryError, type OutgoingChannelMessage } from '../../../src/channels/connector.js';
import { WhatsAppConnector, type WhatsAppSettings } from '../../../src/channels/whatsapp/whatsapp-connector.js';
import { OutboundPolicy } from '../../../src/net/address-policy.js';
import { guardedFetch } from '../../../src/net/guarded-fetch.js';
import { loadConfig } from '../../../src/config.js';
import {
  FAKE_ACCESS_TOKEN,
  FAKE_APP_SECRET,
  FAKE_PHONE_NUMBER_ID,
  FakeGraphApi,
  customerMessage,
  customerText,
  signWhatsAppBody,
  webhookEnvelope,
} from '../../support/fake-graph-api.js';

const VERIFY_TOKEN = 'verify-token-0123456789';
const CUSTOMER = '16505551234';
const HOUR = 60 * 60 * 1000;
const MAX_BYTES = 1024;

let graph: FakeGraphApi;
const connector = new WhatsAppConnector({ maxAttachmentBytes: MAX_BYTES });
const signal = () => AbortSignal.timeout(20_000);

beforeAll(async () => {
  graph = new FakeGraphApi();
  await graph.start();
});
afterAll(async () => {
  await graph.close();
});

const connection = (config: Partial<WhatsAppSettings> = {}, secrets: { accessToken?: string } = {}) => ({
  id: 'conn_1',
  config: {
    phoneNumberId: FAKE_PHONE_NUMBER_ID,
    verifyToken: VERIFY_TOKEN,
    graphApiBaseUrl: graph.url,
    templateName: null,
    templateLanguage: null,
    ...config,
  },
  secrets: { accessToken: secrets.accessToken ?? FAKE_ACCESS_TOKEN, appSecret: FAKE_APP_SECRET },
  inboundUrl: 'https://parley.example/channels/conn_1/inbound',
});

const outgoing = (text: string, lastInboundAt: string | null, to = CUSTOMER): OutgoingChannelMessage => ({
  id: 'msg_1',
  conversationId: 'conv_1',
  automatic: true,
  channelExternalId: to,
  text,
  title: 'Order',
  thread: [],
  to: null,
  lastInboundAt,
  notice: null,
});

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** A delivery signed as Meta signs it. */
const signed = (value: Record<string, unknown>) => {
  const body = JSON.stringify(webhookEnvelope(value));
  return { headers: { 'x-hub-signature-256': signWhatsAppBody(body, FAKE_APP_SECRET) }, body: Buffer.from(body) };
};

async function channelError(promise: Promise<unknown>): Promise<ChannelError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ChannelError);
  return error as ChannelError;
}

describe('the WhatsApp connector against a loopback Graph API', () => {
  it('answers Meta’s verification request with its challenge, and refuses another token or mode', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.challenge': '1158201444', 'hub.verify_token': VERIFY_TOKEN };
    expect(connector.handshake(connection(), query)).toBe('1158201444');
    expect(() => connector.handshake(connection(), { ...query, 'hub.verify_token': 'verify-token-0123456780' })).toThrow(UnverifiedDeliveryError);
    expect(() => connector.handshake(connection(), { ...query, 'hub.mode': 'unsubscribe' })).toThrow(UnverifiedDeliveryError);
    expect(() => connector.handshake(connection(), { 'hub.mode': 'subscribe', 'hub.challenge': '1' })).toThrow(UnverifiedDeliveryError);
  });

  it('checks the number: its display number and verified name; a refused token says so', async () => {
    const check = await connector.check(connection(), signal());
    expect(check).toEqual({
      ok: true,
      message: 'Connected to Parley Test Shop (+1 555-010-0199)',
      details: { displayPhoneNumber: '+1 555-010-0199', verifiedName: 'Parley Test Shop' },
    });
    const refused = await connector.check(connection({}, { accessToken: 'EAAGrevokedToken' }), signal());
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/access token was refused/);
    expect(refused.message).not.toContain('EAAGrevokedToken');
  });

  it('refuses an unsigned delivery before reading it', async () => {
    const body = Buffer.from(JSON.stringify(webhookEnvelope(customerText(CUSTOMER, 'Ada', 'planted'))));
    await expect(Promise.resolve().then(() => connector.receive(connection(), { headers: {}, body }))).rejects.toThrow(UnverifiedDeliveryError);
  });

  it('downloads media with the token as attachments, and names a file over the cap as dropped without fetching it', async () => {
    graph.addMedia('7001', Buffer.from('%PDF-1.4 invoice'), 'application/pdf');
    graph.addMedia('7002', Buffer.alloc(MAX_BYTES + 1, 1), 'image/jpeg');
    const small = await connector.receive(
      connection(),
      signed(
        customerMessage(CUSTOMER, 'Ada', 'document', {
          filename: 'invoice.pdf',
          mime_type: 'application/pdf',
          sha256: 'x',
          id: '7001',
          caption: 'My invoice',
        }),
      ),
    );
    expect(small.messages[0]).toMatchObject({ text: 'My invoice', attachments: [{ name: 'invoice.pdf', mimeType: 'application/pdf' }] });
    expect(Buffer.from(small.messages[0]!.attachments[0]!.content).toString()).toBe('%PDF-1.4 invoice');
    expect(
      graph.calls.filter((call) => call.path.startsWith('/media-files/')).every((call) => call.authorization === `Bearer ${FAKE_ACCESS_TOKEN}`),
    ).toBe(true);

    const fetchedBefore = graph.calls.filter((call) => call.path === '/media-files/7002').length;
    const large = await connector.receive(
      connection(),
      signed(customerMessage(CUSTOMER, 'Ada', 'image', { mime_type: 'image/jpeg', sha256: 'x', id: '7002' })),
    );
    expect(large.messages[0]).toMatchObject({ attachments: [], droppedAttachments: ['image.jpg'] });
    expect(graph.calls.filter((call) => call.path === '/media-files/7002')).toHaveLength(fetchedBefore);

    const gone = await connector.receive(
      connection(),
      signed(customerMessage(CUSTOMER, 'Ada', 'video', { mime_type: 'video/mp4', sha256: 'x', id: '7003' })),
    );
    expect(gone.messages[0]?.droppedAttachments).toEqual(['video.mp4 (could not be downloaded)']);
  });

  describe('the 24-hour customer-service window', () => {
    it('inside it, sends the answer as text in WhatsApp’s formatting', async () => {
      graph.customerWrote(CUSTOMER, Date.now() - HOUR);
      const sent = await connector.send(
        connection(),
        outgoing('**Opening hours**: 9 am to 6 pm, see [the page](https://shop.example/hours)', ago(HOUR)),
        signal(),
      );
      expect(graph.sent.at(-1)).toMatchObject({
        to: CUSTOMER,
        type: 'text',
        text: '*Opening hours*: 9 am to 6 pm, see the page (https://shop.example/hours)',
      });
      expect(sent.channelMessageId).toBe(graph.sent.at(-1)?.id);
    });

    it('cuts a long answer into messages WhatsApp takes, between paragraphs', async () => {
      graph.customerWrote(CUSTOMER);
      const before = graph.sent.length;
      const paragraph = `${'word '.repeat(500).trim()}.`;
      await connector.send(connection(), outgoing(Array.from({ length: 4 }, () => paragraph).join('\n\n'), ago(HOUR)), signal());
      const parts = graph.sent.slice(before);
      // Two paragraphs are longer than a message: one each.
      expect(parts.map((part) => part.text)).toEqual([paragraph, paragraph, paragraph, paragraph]);
    });

    it('outside it with a template configured, sends the template', async () => {
      const customer = '16505550002';
      const sent = await connector.send(
        connection({ templateName: 'reply_waiting', templateLanguage: 'en_US' }),
        outgoing('Here is your answer', ago(25 * HOUR), customer),
        signal(),
      );
      expect(graph.sent.at(-1)).toEqual({
        to: customer,
        type: 'template',
        text: undefined,
        template: { name: 'reply_waiting', language: 'en_US' },
        id: sent.channelMessageId,
      });
    });

    it('outside it without a template, or when the person never wrote, refuses with the reason and sends nothing', async () => {
      const before = graph.sent.length;
      for (const lastInboundAt of [ago(25 * HOUR), null]) {
        const error = await channelError(connector.send(connection(), outgoing('Here is your answer', lastInboundAt, '16505550003'), signal()));
        expect(error.retryable).toBe(false);
        expect(error.message).toMatch(/24 hours.*template/);
      }
      expect(graph.sent).toHaveLength(before);
    });

    it('maps WhatsApp’s own re-engagement refusal (131047) to the same explanation, not retried', async () => {
      // Parley thinks the window is open (its clock), WhatsApp does not.
      const error = await channelError(connector.send(connection(), outgoing('Hello again', ago(HOUR), '16505550004'), signal()));
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/24 hours/);
    });
  });

  describe('Graph API errors', () => {
    it('retries a rate-limited send in place, honouring Retry-After', async () => {
      graph.customerWrote(CUSTOMER);
      graph.failNext({ status: 400, code: 131056, message: 'Pair rate limit hit', retryAfter: 0 });
      graph.failNext({ status: 429, code: 80007, message: 'Rate limit issues', retryAfter: 1 });
      const started = Date.now();
      const sent = await connector.send(connection(), outgoing('After the wait', ago(HOUR)), signal());
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(graph.sent.at(-1)).toMatchObject({ text: 'After the wait', id: sent.channelMessageId });
    });

    it('gives a rate limit that outlasts the retries, or asks a long wait, back as retryable', async () => {
      graph.customerWrote(CUSTOMER);
      graph.failNext({ status: 429, code: 130429, message: 'Rate limit hit', retryAfter: 3600 });
      const long = await channelError(connector.send(connection(), outgoing('x', ago(HOUR)), signal()));
      expect(long.retryable).toBe(true);
      expect(long.message).toMatch(/slow down for 3600 s/);
      for (let i = 0; i < 3; i++) graph.failNext({ status: 400, code: 4, message: 'Application request limit reached', retryAfter: 0 });
      expect((await channelError(connector.send(connection(), outgoing('x', ago(HOUR)), signal()))).retryable).toBe(true);
    });

    it('does not retry a refused token, nor a refused request; retries Meta’s own failures', async () => {
      const token = await channelError(connector.send(connection({}, { accessToken: 'EAAGwrong' }), outgoing('x', ago(HOUR)), signal()));
      expect(token).toMatchObject({ retryable: false, message: expect.stringMatching(/the access token was refused/) });
      expect(token.message).not.toContain('EAAGwrong');
      graph.failNext({ status: 400, code: 100, message: 'Invalid parameter' });
      expect(await channelError(connector.send(connection(), outgoing('x', ago(HOUR)), signal()))).toMatchObject({
        retryable: false,
        message: expect.stringMatching(/Invalid parameter.*error 100/),
      });
      graph.failNext({ status: 500, code: 131000, message: 'Something went wrong' });
      expect((await channelError(connector.send(connection(), outgoing('x', ago(HOUR)), signal()))).retryable).toBe(true);
    });

    it('refuses a Graph API address the outbound policy does not allow, naming only its host', async () => {
      const guarded = new WhatsAppConnector({ fetch: guardedFetch(new OutboundPolicy(loadConfig({}).outbound)), maxAttachmentBytes: MAX_BYTES });
      const error = await channelError(guarded.send(connection(), outgoing('x', ago(HOUR)), signal()));
      expect(error).toMatchObject({ retryable: false, message: `Parley’s outbound policy does not allow connecting to ${new URL(graph.url).host}` });
    });
  });
});
