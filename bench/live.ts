import { setTimeout as sleep } from 'node:timers/promises';
import { EventStreamClient } from '../test/support/event-stream.js';
import type { StoreKind } from '../test/support/stores.js';
import { startServeProcess, type ProbedMemory, type ServeProcess } from '../test/support/worker-process.js';
import { CpuMeter, type CpuFigures } from './cpu-meter.js';
import { figure, kibibytes, megabytes, ratio, seconds, type Figure } from './figures.js';
import { expectOk, startInProcessParley, type InProcessParley } from './in-process-parley.js';
import { percentile, summarizeLatencies, timed, type LatencySummary } from './latency.js';

/** How long one stream waits for an event before the bench gives up on it. */
const EVENT_TIMEOUT_MS = 10_000;
/** Un-timed replies before the timed ones: the first calls of a route pay for compiling it. */
const WARMUP_SAMPLES = 5;
/** Streams opened at once. */
const OPEN_BATCH = 50;

/** A stream client's view of one reply: from sending it to the stream's client having its event. */
export interface EventToScreen {
  /** Where the stream is held: the process that takes the reply, or a `parley serve` process of its own. */
  streamOn: 'writing process' | 'other process';
  /**
   * SQLite across processes: the stream process sees other processes' writes only by its 1 s poll, so each
   * sample starts after a random pause of up to a second (else the samples would lock to the poll's phase).
   */
  pollBound: boolean;
  /** POST /conversations/{id}/messages sent → its `message.created` received by the stream's client. */
  eventToScreen: LatencySummary;
  /** The same reply sent → its 201 answer (the event may come first: the reply marks read after writing). */
  replyAnswer: LatencySummary;
  /** Baseline: GET /healthz on the writing process, one before each reply. */
  loopback: LatencySummary;
  eventToScreenOverLoopback: Figure;
}

/** Idle streams held by a `parley serve` process of its own: what they cost it, read after a garbage collection. */
export interface StreamMemory {
  streams: Figure;
  /** The process's RSS (VmRSS) without the streams and with them, each right after a forced collection. */
  baselineRss: Figure;
  withStreamsRss: Figure;
  /** Live JavaScript heap plus memory outside it (sockets' buffers), per stream: what a stream really holds. */
  perStream: Figure;
  /** The RSS difference per stream: what the process kept from the OS (includes allocator slack). */
  rssPerStream: Figure;
  /** Opening them all, 50 at a time, each until its `ready` event. */
  opening: Figure;
}

/** Events written through the API on one process, fanned out to streams on a `parley serve` process of its own. */
export interface FanOut {
  streams: Figure;
  events: Figure;
  /** Replies sent at once (each writer one conversation, one reply after the other). */
  writers: Figure;
  /** First reply sent → the last stream has the last event. */
  lastEvent: Figure;
  /** First reply sent → the last reply answered. */
  writing: Figure;
  /** CPU time of the process holding the streams over that stretch, per 1,000 events. */
  streamProcessCpuPer1000: Figure;
  /**
   * The writing process's own CPU time per 1,000 events (process.cpuUsage): the same replies written with no
   * stream open, since during the fan-out this process also runs the streams' clients.
   */
  writerCpuPer1000: Figure;
  streamProcessOverWriter: Figure;
  /** The stream process's CPU time per 1,000 events while they were written with no stream open. */
  streamProcessIdleCpuPer1000: Figure;
  /** This process during the fan-out: the writer and the streams' clients, which parse every event. */
  benchProcessCpuPer1000: Figure;
  /** Both stretches as this process saw them: the stream process and PostgreSQL are among the `others`. */
  cpu: { writerAlone: CpuFigures; fanOut: CpuFigures };
}

export interface LiveStoreResult {
  store: StoreKind;
  sameProcess: EventToScreen;
  otherProcess: EventToScreen;
  memory: StreamMemory;
  fanOut: FanOut;
}

export interface LiveOptions {
  stores: readonly StoreKind[];
  /** Timed replies per event-to-screen case. */
  samples: number;
  /** Timed replies across processes on SQLite, where each waits for the poll (~0.5 s on average). */
  pollBoundSamples: number;
  idleStreams: number;
  fanOutStreams: number;
  fanOutEvents: number;
  writers: number;
  log: (line: string) => void;
}

/**
 * What the live event stream (`GET /events/stream`) costs: the time from a member's reply to its event on a
 * client's screen, beside a loopback round trip of the same run, with the stream on the writing process and on
 * a second `parley serve` process (PostgreSQL wakes it by NOTIFY, SQLite by a 1 s poll); the memory of idle
 * streams and the CPU of fanning events out to many, read from /proc of that second process.
 */
export async function runLiveBench(options: LiveOptions): Promise<LiveStoreResult[]> {
  const results: LiveStoreResult[] = [];
  for (const store of options.stores) results.push(await measureStore(store, options));
  return results;
}

async function measureStore(store: StoreKind, options: LiveOptions): Promise<LiveStoreResult> {
  const parley = await startInProcessParley({ store, embedderThreads: 1 });
  const opened = new Set<EventStreamClient>();
  let other: ServeProcess | undefined;
  try {
    const writer = new Writer(parley, await parley.newMember());
    // The bench opens every stream with one key: the key's rate limit would count the bench, not the streams.
    other = await startServeProcess({ ...parley.storeEnv, PARLEY_RATE_LIMIT_KEY_PER_MINUTE: '1000000' }, { memoryProbe: true });
    const open = async (base: string, count: number): Promise<EventStreamClient[]> => {
      const streams: EventStreamClient[] = [];
      for (let start = 0; start < count; start += OPEN_BATCH) {
        const batch = Math.min(OPEN_BATCH, count - start);
        streams.push(
          ...(await Promise.all(Array.from({ length: batch }, () => EventStreamClient.open(base, { key: parley.key, timeoutMs: 30_000 })))),
        );
      }
      for (const stream of streams) opened.add(stream);
      return streams;
    };
    const close = (streams: readonly EventStreamClient[]) => {
      for (const stream of streams) {
        stream.close();
        opened.delete(stream);
      }
    };

    const conversationId = await writer.conversation();
    options.log(`live ${store}: event to screen, stream on the writing process (${options.samples} replies)`);
    const [here] = await open(parley.url, 1);
    const sameProcess = await eventToScreen(writer, conversationId, here!, {
      streamOn: 'writing process',
      samples: options.samples,
      pollBound: false,
    });
    close([here!]);
    const pollBound = store === 'sqlite';
    const acrossSamples = pollBound ? options.pollBoundSamples : options.samples;
    options.log(`live ${store}: event to screen, stream on another process (${acrossSamples} replies${pollBound ? ', 1 s poll' : ''})`);
    const [there] = await open(other.url, 1);
    const otherProcess = await eventToScreen(writer, conversationId, there!, { streamOn: 'other process', samples: acrossSamples, pollBound });
    close([there!]);

    options.log(`live ${store}: memory of ${options.idleStreams} idle streams on another process`);
    const before = await settledMemory(other);
    const opening = await timed(() => open(other!.url, options.idleStreams));
    const after = await settledMemory(other);
    close(opening.result);
    const held = (memory: ProbedMemory) => memory.heapUsed + memory.external;
    const memory: StreamMemory = {
      streams: figure(options.idleStreams, 'count'),
      baselineRss: megabytes(before.rss),
      withStreamsRss: megabytes(after.rss),
      perStream: kibibytes((held(after) - held(before)) / options.idleStreams),
      rssPerStream: kibibytes((after.rss - before.rss) / options.idleStreams),
      opening: seconds(opening.millis / 1000),
    };

    options.log(`live ${store}: ${options.fanOutEvents} events fanned out to ${options.fanOutStreams} streams on another process`);
    const fanOut = await measureFanOut(writer, other, options, (count) => open(other!.url, count), close);
    return { store, sameProcess, otherProcess, memory, fanOut };
  } finally {
    for (const stream of opened) stream.close();
    await other?.stop();
    await parley.close();
  }
}

/** Member replies through the API of the in-process Parley, with a workspace key naming the member. */
class Writer {
  constructor(
    readonly parley: InProcessParley,
    private readonly memberId: string,
  ) {}

  /**
   * A conversation the member has taken over: its first reply switched the agent off and assigned it, so each
   * later reply records exactly one event, its `message.created`.
   */
  async conversation(): Promise<string> {
    const { conversations } = this.parley.core.services;
    const { conversation } = await conversations.intake.start(this.parley.workspaceId, { agentId: null, channel: 'api' });
    await this.reply(conversation.id, 'Taking this one over.');
    return conversation.id;
  }

  async reply(conversationId: string, text: string): Promise<void> {
    const answer = await this.parley.call('POST', `/conversations/${conversationId}/messages`, { text, memberId: this.memberId });
    expectOk('POST /conversations/{id}/messages', answer);
  }

  /** `events` replies, `writers` at a time, each writer on a conversation of its own. */
  async burst(conversationIds: readonly string[], events: number, label: string): Promise<void> {
    await Promise.all(
      conversationIds.map(async (conversationId, writer) => {
        for (let index = writer; index < events; index += conversationIds.length) await this.reply(conversationId, `${label} ${index}`);
      }),
    );
  }
}

/** The moment the stream's client has the `message.created` of `text`, looking from its `from`-th event on. */
async function arrivalOf(stream: EventStreamClient, from: number, text: string): Promise<number> {
  for (let seen = from; ; seen += 1) {
    const event = (await stream.events.waitFor(seen + 1, EVENT_TIMEOUT_MS))[seen]!;
    if (event.type === 'message.created' && event.envelope.data.message.text === text) return performance.now();
  }
}

async function eventToScreen(
  writer: Writer,
  conversationId: string,
  stream: EventStreamClient,
  options: { streamOn: EventToScreen['streamOn']; samples: number; pollBound: boolean },
): Promise<EventToScreen> {
  const toScreen: number[] = [];
  const answer: number[] = [];
  const loopback: number[] = [];
  const healthz = `${writer.parley.url}/healthz`;
  for (let sample = -WARMUP_SAMPLES; sample < options.samples; sample += 1) {
    if (options.pollBound) await sleep(Math.random() * 1_000);
    const roundTrip = await timed(() => fetch(healthz).then((response) => response.text()));
    const text = `Live reply ${options.streamOn} ${sample}`;
    const from = stream.events.items.length;
    const sent = performance.now();
    const [arrived, replied] = await Promise.all([arrivalOf(stream, from, text), timed(() => writer.reply(conversationId, text))]);
    if (sample < 0) continue;
    loopback.push(roundTrip.millis);
    toScreen.push(arrived - sent);
    answer.push(replied.millis);
  }
  const screen = summarizeLatencies(toScreen);
  const direct = summarizeLatencies(loopback);
  return {
    streamOn: options.streamOn,
    pollBound: options.pollBound,
    eventToScreen: screen,
    replyAnswer: summarizeLatencies(answer),
    loopback: direct,
    eventToScreenOverLoopback: ratio(screen.p50.value, direct.p50.value),
  };
}

/** The process's memory after a second of quiet and a forced garbage collection (the median of three). */
async function settledMemory(server: ServeProcess): Promise<ProbedMemory> {
  await sleep(1_000);
  const readings: ProbedMemory[] = [];
  for (let reading = 0; reading < 3; reading += 1) readings.push(await server.probeMemory());
  const median = (field: keyof ProbedMemory) =>
    percentile(
      readings.map((each) => each[field]),
      50,
    );
  return { rss: median('rss'), heapUsed: median('heapUsed'), external: median('external'), arrayBuffers: median('arrayBuffers') };
}

async function measureFanOut(
  writer: Writer,
  other: ServeProcess,
  options: LiveOptions,
  open: (count: number) => Promise<EventStreamClient[]>,
  close: (streams: readonly EventStreamClient[]) => void,
): Promise<FanOut> {
  const conversations = await Promise.all(Array.from({ length: options.writers }, () => writer.conversation()));
  const events = options.fanOutEvents;
  const per1000 = (cpuSeconds: number) => seconds((cpuSeconds * 1000) / events);

  // The writer alone: the same replies with no stream open anywhere (the stream process only hears of them).
  await sleep(1_000);
  const idleBefore = other.cpuSeconds();
  const alone = new CpuMeter().start();
  await writer.burst(conversations, events, 'Alone');
  const writerAlone = alone.stop();
  const streamProcessIdle = other.cpuSeconds() - idleBefore;

  const streams = await open(options.fanOutStreams);
  await sleep(1_000);
  const before = other.cpuSeconds();
  const meter = new CpuMeter().start();
  const start = performance.now();
  const written = writer.burst(conversations, events, 'Fan-out').then(() => performance.now());
  await Promise.all(streams.map((stream) => stream.events.waitFor(events, 120_000)));
  const lastEvent = performance.now();
  const writtenAt = await written;
  const fanOut = meter.stop();
  const streamProcess = other.cpuSeconds() - before;
  // Every stream got the same events in the same order, and nothing else.
  const order = streams[0]!.events.items.map((event) => event.id).join();
  for (const stream of streams) {
    const items = stream.events.items;
    if (items.length !== events || items.some((event) => event.type !== 'message.created') || items.map((event) => event.id).join() !== order) {
      throw new Error(`a stream got ${items.length} events, or others than the ${events} replies in stream order`);
    }
  }
  close(streams);
  const writerCpu = writerAlone.own.value;
  return {
    streams: figure(streams.length, 'count'),
    events: figure(events, 'count'),
    writers: figure(options.writers, 'count'),
    lastEvent: seconds((lastEvent - start) / 1000),
    writing: seconds((writtenAt - start) / 1000),
    streamProcessCpuPer1000: per1000(streamProcess),
    writerCpuPer1000: per1000(writerCpu),
    streamProcessOverWriter: ratio(streamProcess, writerCpu),
    streamProcessIdleCpuPer1000: per1000(streamProcessIdle),
    benchProcessCpuPer1000: per1000(fanOut.own.value),
    cpu: { writerAlone, fanOut },
  };
}
