import nodemailer from 'nodemailer';
import { threadConversationId } from '../src/domain/conversations/conversation-intake.js';
import type { Store } from '../src/store/store.js';
import { FAKE_SLACK_BOT_TOKEN, FAKE_SLACK_SIGNING_SECRET, FakeSlackApi } from '../test/support/fake-slack-api.js';
import { FAKE_CRISP_IDENTIFIER, FAKE_CRISP_KEY, FAKE_CRISP_WEBSITE_ID, FakeCrispApi, visitorMessageHook } from '../test/support/fake-crisp-api.js';
import { FAKE_ACCESS_TOKEN, FAKE_APP_SECRET, FAKE_PHONE_NUMBER_ID, FakeGraphApi, customerText } from '../test/support/fake-graph-api.js';
import { FAKE_BOT_TOKEN, FakeTelegramBotApi } from '../test/support/fake-telegram-bot-api.js';
import { SHOP_HELP_PASSAGES } from '../test/support/shop-help-passages.js';
import { SmtpSink } from '../test/support/smtp-sink.js';
import type { StoreKind } from '../test/support/stores.js';
import { figure, ms, ratio, type Figure } from './figures.js';
import { expectOk, startInProcessParley, stringField, type InProcessParley } from './in-process-parley.js';
import { percentile, summarizeLatencies, timed, type LatencySummary } from './latency.js';

/** A latency with its 90th percentile too: the channel cases are 30 samples, where p99 is the maximum. */
export type ChannelLatency = LatencySummary & { p90: Figure };

/** One step of a message's path: its p50 and p90 over the samples. */
export interface ChannelStep {
  p50: Figure;
  p90: Figure;
}

/**
 * Where the time of one message goes, from the store's timestamps and the job claims the bench notes (wall
 * clock, ms): handed over → the person's message stored → its answer job claimed by a runner → the agent's
 * answer stored (retrieval, model) → its send job queued (outbox event dispatched) → the send job claimed →
 * the reply at the vendor. A claim that waits for a runner's idle poll (500 ms) shows in the claim steps.
 */
export interface ChannelStages {
  toStored: ChannelStep;
  storedToAnswerClaimed: ChannelStep;
  answerClaimedToAnswerStored: ChannelStep;
  answerStoredToSendQueued: ChannelStep;
  sendQueuedToSendClaimed: ChannelStep;
  sendClaimedToVendor: ChannelStep;
}

export interface ChannelCase {
  name: string;
  /** Handed to the vendor side → the reply arrived at the vendor side. */
  latency: ChannelLatency;
  /** Over the baseline's p50 (all its samples, asked between the channels' messages). */
  p50OverQuery: Figure;
  /** The baseline queries asked between this channel's messages. */
  queryAlongside: ChannelLatency;
  stages: ChannelStages;
}

export interface ChannelsResult {
  store: StoreKind;
  messages: Figure;
  /**
   * The same questions through POST /agents/{id}/query (non-streaming, built-in model), one before each
   * channel message: every channel's rounds together.
   */
  query: ChannelLatency;
  cases: ChannelCase[];
}

const PASSAGES: Readonly<Record<string, string>> = {
  ...SHOP_HELP_PASSAGES,
  'Opening hours.txt': 'The shop opens at 9 am and closes at 6 pm, Monday to Saturday. On Sundays the shop is closed.',
  'Payment.txt': 'We accept Visa, Mastercard and PayPal. Invoices are sent by e-mail once the order has shipped.',
};

/** Rounds of each channel (and of the query) before the measured ones: the embedder and JIT warm up. */
const WARM_UP_ROUNDS = 5;

const QUESTIONS = [
  'When does the shop open on Monday?',
  'How long does delivery to the United Kingdom take?',
  'Can I return unworn items?',
  'Are you open on Sunday?',
  'Which payment methods do you accept?',
];

/** One handed-over message: when it was handed over and when its reply arrived (Date.now()), and its conversation. */
interface Sample {
  sentAt: number;
  arrivedAt: number;
  conversationId: string;
}

const channelLatency = (millis: readonly number[]): ChannelLatency => ({ ...summarizeLatencies(millis), p90: ms(percentile(millis, 90)) });

const epoch = (iso: string | undefined): number => (iso === undefined ? Number.NaN : Date.parse(iso));

/** When a runner claimed each job (Date.now()), by job id: noted by wrapping the store's claim. */
function noteClaims(store: Store): Map<string, number> {
  const claimedAt = new Map<string, number>();
  const claim = store.jobs.claim.bind(store.jobs);
  store.jobs.claim = async (...args) => {
    const job = await claim(...args);
    if (job !== undefined) claimedAt.set(job.id, Date.now());
    return job;
  };
  return claimedAt;
}

/** The marks of one sample's path (see {@link ChannelStages}), as ms after it was handed over. */
async function marksOf(store: Store, workspaceId: string, claimedAt: ReadonlyMap<string, number>, sample: Sample): Promise<number[]> {
  const messages = await store.messages.listByConversations(workspaceId, [sample.conversationId]);
  const human = messages.find((message) => message.from === 'human');
  const answer = messages.find((message) => message.from === 'agent');
  if (human === undefined || answer === undefined) throw new Error(`conversation ${sample.conversationId} lacks its question or answer`);
  const sendQueued = epoch((await store.jobs.find(`job_send_${answer.id}`))?.createdAt);
  const claimed = (jobId: string) => claimedAt.get(jobId) ?? Number.NaN;
  return [
    sample.sentAt,
    epoch(human.createdAt),
    claimed(`job_answer_${human.id}`),
    epoch(answer.createdAt),
    sendQueued,
    claimed(`job_send_${answer.id}`),
    sample.arrivedAt,
  ].map((at) => at - sample.sentAt);
}

/** A channel's samples, and the baseline queries asked between them. */
interface MeasuredCase {
  name: string;
  samples: Sample[];
  queryAlongside: ChannelLatency;
}

async function channelCase(
  parley: InProcessParley,
  claimedAt: ReadonlyMap<string, number>,
  { name, samples, queryAlongside }: MeasuredCase,
  queryP50: number,
): Promise<ChannelCase> {
  const latency = channelLatency(samples.map((sample) => sample.arrivedAt - sample.sentAt));
  const marks = await Promise.all(samples.map((sample) => marksOf(parley.core.store, parley.workspaceId, claimedAt, sample)));
  const step = (from: number): ChannelStep => {
    const gaps = marks.map((mark) => mark[from + 1]! - mark[from]!);
    return { p50: ms(percentile(gaps, 50)), p90: ms(percentile(gaps, 90)) };
  };
  return {
    name,
    latency,
    p50OverQuery: ratio(latency.p50.value, queryP50),
    queryAlongside,
    stages: {
      toStored: step(0),
      storedToAnswerClaimed: step(1),
      answerClaimedToAnswerStored: step(2),
      answerStoredToSendQueued: step(3),
      sendQueuedToSendClaimed: step(4),
      sendClaimedToVendor: step(5),
    },
  };
}

/** A private chat's text message as Telegram sends it. */
const textUpdate = (chatId: number, text: string) => ({
  message: {
    message_id: 1,
    date: Math.floor(Date.now() / 1000),
    chat: { id: chatId, type: 'private', first_name: 'Ada', last_name: 'Lovelace', username: 'ada' },
    from: { id: chatId, is_bot: false, first_name: 'Ada', last_name: 'Lovelace', username: 'ada', language_code: 'en' },
    text,
  },
});

/**
 * Message in → reply out through each channel, with the built-in (offline) model: a Telegram bot by webhook
 * and by long polling against a loopback Bot API, a WhatsApp number by signed deliveries against a loopback
 * Graph API, e-mail through Parley's SMTP listener with AI replies, the reply caught by an SMTP sink, a Slack
 * app's signed mentions answered through a loopback Web API, and Crisp's signed Plugin Hooks answered through a
 * loopback REST API. One message at a time, each a new chat or thread; beside the same
 * questions asked through POST /agents/{id}/query in the same run.
 */
export async function runChannelsBench(options: { store: StoreKind; messages: number; log: (line: string) => void }): Promise<ChannelsResult> {
  const telegram = new FakeTelegramBotApi();
  await telegram.start();
  const slack = new FakeSlackApi();
  await slack.start();
  const crisp = new FakeCrispApi();
  await crisp.start();
  const graph = new FakeGraphApi();
  await graph.start();
  const sink = await SmtpSink.start();
  const parley = await startInProcessParley({ store: options.store, embedderThreads: 1, env: { PARLEY_MAIL_INBOUND_PORT: '0' } });
  const mailer = nodemailer.createTransport({ host: '127.0.0.1', port: parley.mailInboundPort ?? 0, secure: false, pool: true, maxConnections: 1 });
  const claimedAt = noteClaims(parley.core.store);
  try {
    const call = async (method: string, route: string, body?: unknown) => expectOk(`${method} ${route}`, await parley.call(method, route, body));
    const datastoreId = stringField(await call('POST', '/datastores', { name: 'Help centre' }), 'id');
    for (const [name, text] of Object.entries(PASSAGES)) await call('POST', '/datasources', { type: 'text', datastoreId, name, text });
    for (;;) {
      const list = await call('GET', `/datastores/${datastoreId}/datasources`);
      const statuses = Array.isArray(list) ? list.map((item: unknown) => stringField(item, 'status')) : [];
      if (statuses.some((status) => status === 'error')) throw new Error(`ingestion failed: ${statuses.join(', ')}`);
      if (statuses.length === Object.keys(PASSAGES).length && statuses.every((status) => status === 'synched')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const agentId = stringField(await call('POST', '/agents', { name: 'Shop', tools: [{ type: 'datastore', datastoreId }] }), 'id');
    const question = (index: number) => QUESTIONS[index % QUESTIONS.length]!;
    const rounds = Array.from({ length: options.messages }, (_, index) => index);

    const ask = (index: number) => call('POST', `/agents/${agentId}/query`, { query: question(index) });
    const queryMillis: number[] = [];
    /**
     * A channel's rounds after its warm-up, each the same question through POST /agents/{id}/query first:
     * the baseline is measured all along the run, under the same conditions as every channel.
     */
    const measure = async (name: string, round: (index: number) => Promise<Sample>): Promise<MeasuredCase> => {
      options.log(`channels: ${options.messages} messages, ${name}`);
      for (let index = 0; index < WARM_UP_ROUNDS; index += 1) {
        await ask(index);
        await round(index);
      }
      const samples: Sample[] = [];
      const alongside: number[] = [];
      for (const index of rounds) {
        alongside.push((await timed(() => ask(index))).millis);
        samples.push(await round(index));
      }
      queryMillis.push(...alongside);
      return { name, samples, queryAlongside: channelLatency(alongside) };
    };

    let nextChat = 7000;
    const telegramRound = async (index: number, hand: (update: Record<string, unknown>) => Promise<unknown>): Promise<Sample> => {
      const chat = nextChat++;
      const reply = telegram.nextSent(String(chat));
      const sentAt = Date.now();
      await hand(textUpdate(chat, question(index)));
      const { at } = await reply;
      return { sentAt, arrivedAt: at, conversationId: threadConversationId(agentId, 'messenger_b', String(chat)) };
    };
    const telegramCase = (name: string, hand: (update: Record<string, unknown>) => Promise<unknown>) =>
      measure(name, (index) => telegramRound(index, hand));

    const connection = await call('POST', `/agents/${agentId}/channels`, {
      channel: 'telegram',
      config: { botToken: FAKE_BOT_TOKEN, mode: 'webhook', apiBaseUrl: telegram.url },
    });
    const connectionId = stringField(connection, 'id');
    const webhook = await telegramCase('Telegram webhook', async (update) => {
      const status = await telegram.deliverToWebhook(update);
      if (status !== 200) throw new Error(`the webhook answered ${status}`);
    });
    await call('PATCH', `/channels/${connectionId}`, { config: { mode: 'polling' } });
    const polling = await telegramCase('Telegram long polling', async (update) => telegram.pushUpdate(update));

    const whatsAppConnection = await call('POST', `/agents/${agentId}/channels`, {
      channel: 'whatsapp',
      config: { phoneNumberId: FAKE_PHONE_NUMBER_ID, accessToken: FAKE_ACCESS_TOKEN, appSecret: FAKE_APP_SECRET, graphApiBaseUrl: graph.url },
    });
    // Meta's check of the callback URL, with the verify token Parley made.
    const verifyToken = stringField((whatsAppConnection as { config?: unknown }).config, 'verifyToken');
    const verified = await graph.verifyCallback(stringField(whatsAppConnection, 'inboundUrl'), verifyToken);
    if (!verified.verified) throw new Error(`the WhatsApp callback URL was not verified (${verified.status})`);
    let nextCustomer = 16505557000;
    const whatsApp = await measure('WhatsApp webhook', async (index) => {
      const customer = String(nextCustomer++);
      const reply = graph.nextSent(customer);
      const sentAt = Date.now();
      const status = await graph.deliver(customerText(customer, 'Ada Lovelace', question(index)));
      if (status !== 200) throw new Error(`the WhatsApp webhook answered ${status}`);
      const { at } = await reply;
      return { sentAt, arrivedAt: at, conversationId: threadConversationId(agentId, 'messenger_a', customer) };
    });

    await call('POST', `/agents/${agentId}/channels`, {
      channel: 'email',
      config: {
        address: 'help@shop.example',
        inbound: 'smtp',
        smtp: { host: '127.0.0.1', port: Number(new URL(sink.url).port), secure: false },
        aiReplies: true,
      },
    });
    const mailRound = async (index: number): Promise<Sample> => {
      const id = `bench-${index}-${Math.random().toString(36).slice(2, 10)}@customer.example`;
      const arrived = sink.waitFor(sink.mails.length + 1);
      const sentAt = Date.now();
      await mailer.sendMail({
        from: 'Ada Lovelace <ada@customer.example>',
        to: 'help@shop.example',
        subject: `Question ${index}`,
        messageId: `<${id}>`,
        text: question(index),
      });
      const mail = (await arrived).at(-1)!;
      const arrivedAt = Date.now();
      if (mail.mail.inReplyTo !== `<${id}>`) throw new Error(`a reply to ${mail.mail.inReplyTo ?? 'nothing'} arrived, not to <${id}>`);
      return { sentAt, arrivedAt, conversationId: threadConversationId(agentId, 'mail', id) };
    };
    const mail = await measure('E-mail (SMTP listener → SMTP)', mailRound);

    const slackConnection = await call('POST', `/agents/${agentId}/channels`, {
      channel: 'slack',
      config: { botToken: FAKE_SLACK_BOT_TOKEN, signingSecret: FAKE_SLACK_SIGNING_SECRET, apiBaseUrl: slack.url },
    });
    const requestUrl = `${parley.url}/channels/${stringField(slackConnection, 'id')}/inbound`;
    // Each mention a new thread of one channel: answered in that thread.
    const slackRound = async (index: number): Promise<Sample> => {
      const ts = slack.nextTs();
      const reply = slack.nextPosted((posted) => posted.threadTs === ts);
      const sentAt = Date.now();
      const event = { type: 'app_mention', user: 'U0ADA00001', text: `<@${slack.bot.userId}> ${question(index)}`, ts, channel: 'C0BENCH001' };
      const { status } = await slack.deliver(requestUrl, slack.eventCallback(event));
      if (status !== 200) throw new Error(`the Request URL answered ${status}`);
      const { at } = await reply;
      return { sentAt, arrivedAt: at, conversationId: threadConversationId(agentId, 'team_chat', `C0BENCH001:${ts}`) };
    };
    const slackMentions = await measure('Slack (Events API mention → chat.postMessage)', slackRound);

    const signingSecret = 'bench-crisp-signing-secret';
    const crispConnection = await call('POST', `/agents/${agentId}/channels`, {
      channel: 'crisp',
      config: { websiteId: FAKE_CRISP_WEBSITE_ID, identifier: FAKE_CRISP_IDENTIFIER, key: FAKE_CRISP_KEY, signingSecret, apiBaseUrl: crisp.url },
    });
    const hookUrl = stringField(crispConnection, 'inboundUrl');
    let nextSession = 1;
    const crispRound = async (index: number): Promise<Sample> => {
      const session = `session_00000000-0000-4000-8000-${String(nextSession++).padStart(12, '0')}`;
      const reply = crisp.nextText(session);
      const sentAt = Date.now();
      const status = await crisp.deliverHook(hookUrl, visitorMessageHook(session, question(index)), { signingSecret });
      if (status !== 200) throw new Error(`the Crisp hook answered ${status}`);
      const { at } = await reply;
      return { sentAt, arrivedAt: at, conversationId: threadConversationId(agentId, 'helpdesk', session) };
    };
    const crispCase = await measure('Crisp (Plugin Hook → REST API)', crispRound);

    const query = channelLatency(queryMillis);
    const cases: ChannelCase[] = [];
    for (const measured of [webhook, polling, whatsApp, mail, slackMentions, crispCase])
      cases.push(await channelCase(parley, claimedAt, measured, query.p50.value));
    return { store: options.store, messages: figure(options.messages, 'count'), query, cases };
  } finally {
    mailer.close();
    await parley.close();
    await sink.close();
    await telegram.close();
    await slack.close();
    await crisp.close();
    await graph.close();
  }
}
