import type { AgentQueryResult } from './agent-query.js';
import type { ChannelsResult } from './channels.js';
import type { DashboardResult } from './dashboard.js';
import type { EventsResult } from './events.js';
import type { FirstAnswerResult } from './first-answer.js';
import type { Figure, Goal } from './figures.js';
import type { IngestionResult } from './ingestion.js';
import type { LiveStoreResult } from './live.js';
import type { LoadStoreResult } from './load.js';
import type { LatencySummary } from './latency.js';
import { QUERY_MODES, type QueryResult } from './query.js';
import type { SiteCrawlResult } from './site-crawl.js';
import type { VectorSearchCase } from './vector-search.js';
import type { WidgetResult } from './widget.js';
import type { WindowRecallCase } from './window-recall.js';

const show = (f: Figure | null | undefined, unit = true): string =>
  f === null || f === undefined ? '–' : unit && f.unit !== 'count' && f.unit !== 'fraction' ? `${f.value} ${f.unit}` : String(f.value);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const goalLines = (goals: readonly Goal[]): string[] => goals.map((g) => `  ${g.met ? 'MET   ' : 'MISSED'} ${g.description}`);

export function ingestionTable(r: IngestionResult): string {
  return [
    `Ingestion (${r.store}, ${r.articles} articles, ${r.chunks} chunks, ${r.embedderThreads} embedder threads)`,
    table(
      ['figure', 'value'],
      [
        ['pipeline: first POST → all synched', show(r.pipeline)],
        ['  of which posting', show(r.posting)],
        ['pipeline throughput', show(r.chunksPerSecond)],
        ['embedder alone, same texts', show(r.embedderAlone)],
        ['texts embedded (windows) / chunks', `${r.embeddedTexts} / ${r.chunks}`],
        ['embedder, one text per chunk', show(r.embedderWholeChunks)],
        ['windows / one text per chunk (embedder)', show(r.windowsOverWholeChunks)],
        ['embedder throughput', show(r.embedderChunksPerSecond)],
        ['pipeline / embedder (wall clock)', show(r.pipelineOverEmbedder)],
        ['pipeline / embedder (CPU seconds)', show(r.pipelineOverEmbedderCpu)],
        ["other processes' CPU share: pipeline", show(r.cpu.pipeline.othersShare)],
        ["other processes' CPU share: embedder", show(r.cpu.embedderAlone.othersShare)],
        ['peak RSS (kernel VmHWM)', show(r.peakRssKernel)],
        ['peak RSS (sampled every 50 ms)', show(r.peakRssSampled)],
      ],
    ),
    ...goalLines(r.goals),
  ].join('\n');
}

export function queryTable(r: QueryResult): string {
  const rows = [
    ['embedQuery alone', show(r.embedQuery.p50), show(r.embedQuery.p99), '', '', ''],
    ...QUERY_MODES.map((mode) => {
      const m = r.modes[mode];
      return [
        `POST /query ${mode}`,
        show(m.latency.p50),
        show(m.latency.p99),
        show(m.p50OverEmbedQuery),
        show(m.p50Overhead),
        show(m.meanHits, false),
      ];
    }),
  ];
  return [
    `Query endpoint (${r.queries} queries × 3 modes, topK ${r.topK}, ${r.chunksInDatastore} chunks; first query ${show(r.firstQuery)}; ` +
      `other processes' CPU share ${show(r.cpu.othersShare)})`,
    table(['', 'p50', 'p99', 'p50 / embed', 'p50 − embed', 'hits'], rows),
    `  store alone, same queries: vectorSearch k=50 p50 ${show(r.breakdown.vectorSearchHybridDepth.p50)}, ` +
      `k=${r.topK} p50 ${show(r.breakdown.vectorSearchTopK.p50)}; keywordSearch k=50 p50 ${show(r.breakdown.keywordSearchHybridDepth.p50)}; ` +
      `details of the ${show(r.breakdown.meanCandidates)} candidates p50 ${show(r.breakdown.detailsOfCandidates.p50)}`,
  ].join('\n');
}

export function windowRecallTable(cases: readonly WindowRecallCase[]): string {
  const rows = cases.flatMap((c) =>
    c.byLimit.map(({ limit, recall, latency }) => [
      `${c.store} ${c.chunks / 1000}k (${c.windows / 1000}k windows)`,
      String(limit),
      show(recall),
      show(latency.p50),
      show(latency.p99),
    ]),
  );
  const perChunk = cases[0] === undefined ? '–' : String(cases[0].windows / cases[0].chunks);
  return [
    `Window vectors (each chunk as ${perChunk} windows, scored by its best; recall of the chunks against exact max-sim)`,
    table(['store', 'topK', 'recall', 'p50', 'p99'], rows),
  ].join('\n');
}

export function vectorTable(cases: readonly VectorSearchCase[]): string {
  const rows = cases.map((c) => [
    `${c.store} ${c.chunks / 1000}k`,
    show(c.write),
    show(c.firstSearch),
    show(c.vector.latency.p50),
    show(c.vector.latency.p99),
    show(c.vector.recallAt10),
    show(c.filtered.latency.p50),
    show(c.filtered.latency.p99),
    show(c.filtered.recallAt10),
    show(c.filtered.fullAnswers),
    show(c.keyword.latency.p50),
    show(c.keyword.latency.p99),
    show(c.cpu.othersShare),
  ]);
  return [
    `Store search (synthetic ${cases[0]?.dimensions ?? 512}-d clustered unit vectors, k = 10; filter = 1 datasource of 100 ≈ 1%)`,
    table(
      [
        'store',
        'write',
        '1st search',
        'vec p50',
        'vec p99',
        'recall',
        'filt p50',
        'filt p99',
        'filt rec',
        'filt 10/10',
        'kw p50',
        'kw p99',
        'others CPU',
      ],
      rows,
    ),
    ...cases.flatMap((c) =>
      c.vectorBeforeAnalyze
        ? [
            `  ${c.store} ${c.chunks / 1000}k before ANALYZE (stale planner statistics): vec p50 ${show(c.vectorBeforeAnalyze.p50)}, p99 ${show(c.vectorBeforeAnalyze.p99)}`,
          ]
        : [],
    ),
    ...cases.flatMap((c) => goalLines(c.goals)),
  ].join('\n');
}

/** A labelled row of a latency's p50 and p99. */
const latencyRow = (label: string, latency: LatencySummary): string[] => [label, show(latency.p50), show(latency.p99)];

export function agentQueryTable(r: AgentQueryResult): string {
  const rows = [
    latencyRow('POST /datastores/{id}/query hybrid (retrieval)', r.retrieval),
    latencyRow('POST /agents/{id}/query, instant loopback model', r.instantAnswer),
    latencyRow('built-in model, streamed: first answer event', r.localFirstAnswerEvent),
    latencyRow('built-in model, streamed: whole answer', r.localWhole),
  ];
  return [
    `Agent query (${show(r.queries, false)} questions, ${show(r.chunksInDatastore)}): answer path over retrieval p50 ` +
      `${show(r.answerOverheadP50)} (${show(r.answerOverRetrieval)})`,
    table(['', 'p50', 'p99'], rows),
    ...goalLines(r.goals),
  ].join('\n');
}

export function eventsTable(r: EventsResult): string {
  const rows = [
    latencyRow('POST straight to the receiver (baseline)', r.directPost),
    latencyRow('PATCH /conversations/{id}, metadata only (no event)', r.patchWithoutEvent),
    latencyRow('PATCH /conversations/{id} to RESOLVED (event recorded)', r.patchWithEvent),
    latencyRow('status change sent → signed delivery received', r.eventToReceipt),
  ];
  return [
    `Events (${r.store}, ${show(r.events, false)} events): delivery p50 ${show(r.eventToReceiptOverDirect)} a direct POST; ` +
      `burst of ${show(r.events, false)} status changes: ${show(r.burstDeliveriesPerSecond)}`,
    table(['', 'p50', 'p99'], rows),
  ].join('\n');
}

export function firstAnswerTable(r: FirstAnswerResult): string {
  const rows = [
    ['preloaded (default)', r.preloaded],
    ['PARLEY_EMBEDDINGS_PRELOAD=0', r.onFirstUse],
  ] as const;
  return [
    `First answer after a start (${r.store}, parley start in its own process, POST /agents/{id}/query, a model that answers at once)`,
    table(
      ['', 'start → ready', 'first answer', 'warm p50', 'first / warm p50'],
      rows.map(([name, f]) => [name, show(f.startToReady), show(f.firstAnswer), show(f.warmAnswers.p50), show(f.firstOverWarm)]),
    ),
    ...goalLines(r.goals),
  ].join('\n');
}

export function dashboardTable(r: DashboardResult): string {
  const rows = [
    latencyRow('a blank page of the same server (baseline)', r.blankPage),
    latencyRow('navigation → agents list on screen', r.agentsList),
    latencyRow('navigation → inbox list on screen', r.inboxList),
  ];
  return [
    `Dashboard (${r.store}, Chromium, ${show(r.loads, false)} cold loads): first page JS + CSS gzipped: sign-in ` +
      `${show(r.firstPageGzip.signIn)}, agents ${show(r.firstPageGzip.agents)}; p50 over a blank page: agents list ${show(r.agentsOverBlank)}, ` +
      `inbox list ${show(r.inboxOverBlank)}`,
    table(['', 'p50', 'p99'], rows),
    ...goalLines(r.goals),
  ].join('\n');
}

export function widgetTable(r: WidgetResult): string {
  const rows = [
    latencyRow('script tag → bubble on screen', r.scriptToBubble),
    latencyRow('Enter → first answer words on screen (built-in model)', r.enterToFirstToken),
    latencyRow('same question, fetch → first answer frame (baseline)', r.fetchToFirstAnswerEvent),
  ];
  return [
    `Chat widget (${r.store}, Chromium, page on another loopback origin, ${show(r.loads, false)} cold loads): widget.js ` +
      `${show(r.size.raw)} raw, ${show(r.size.gzip)} gzipped; first words p50 ${show(r.firstTokenOverFetch)} the fetch baseline`,
    table(['', 'p50', 'p99'], rows),
    ...goalLines(r.goals),
  ].join('\n');
}

export function liveTable(results: readonly LiveStoreResult[]): string {
  const where = (r: LiveStoreResult, c: LiveStoreResult['sameProcess']) =>
    c.streamOn === 'writing process'
      ? `${r.store}, stream on the writing process`
      : `${r.store}, stream on another process (${c.pollBound ? '1 s poll' : 'NOTIFY'})`;
  const latencyRows = results.flatMap((r) =>
    [r.sameProcess, r.otherProcess].map((c) => [
      where(r, c),
      show(c.eventToScreen.p50),
      show(c.eventToScreen.p99),
      show(c.replyAnswer.p50),
      show(c.loopback.p50),
      show(c.eventToScreenOverLoopback),
    ]),
  );
  const byStore = (label: string, value: (r: LiveStoreResult) => Figure | null) => [label, ...results.map((r) => show(value(r)))];
  const first = results[0];
  return [
    'Live events (GET /events/stream): a member reply (POST /conversations/{id}/messages) sent → its message.created on the client',
    table(['', 'p50', 'p99', 'reply p50', 'loopback p50', 'p50 / loopback'], latencyRows),
    '',
    `Streams on a parley serve process of their own: ${show(first?.memory.streams, false)} idle; ` +
      `${show(first?.fanOut.events, false)} replies (${show(first?.fanOut.writers, false)} writers) fanned out to ${show(first?.fanOut.streams, false)}`,
    table(
      ['', ...results.map((r) => r.store)],
      [
        byStore('RSS without streams', (r) => r.memory.baselineRss),
        byStore('RSS with the idle streams', (r) => r.memory.withStreamsRss),
        byStore('memory per idle stream (heap + external, after GC)', (r) => r.memory.perStream),
        byStore('RSS per idle stream', (r) => r.memory.rssPerStream),
        byStore('fan-out: first reply → last event on every stream', (r) => r.fanOut.lastEvent),
        byStore('fan-out: first reply → last reply answered', (r) => r.fanOut.writing),
        byStore('stream process CPU per 1,000 events', (r) => r.fanOut.streamProcessCpuPer1000),
        byStore('writer CPU per 1,000 events (no stream open)', (r) => r.fanOut.writerCpuPer1000),
        byStore('stream process / writer', (r) => r.fanOut.streamProcessOverWriter),
        byStore('stream process CPU, no stream open', (r) => r.fanOut.streamProcessIdleCpuPer1000),
        byStore('bench process CPU (writer + clients)', (r) => r.fanOut.benchProcessCpuPer1000),
        // The stream process and PostgreSQL count among the others: a high share is not only noise.
        byStore("fan-out: other processes' CPU share", (r) => r.fanOut.cpu.fanOut.othersShare),
      ],
    ),
  ].join('\n');
}

export function loadTable(results: readonly LoadStoreResult[]): string {
  return results
    .map((r) =>
      [
        `Load (${r.store}, log level ${r.logLevel}; each case after its own warm-up)`,
        table(
          ['', 'conns', 'req/s', 'p50', 'p99', 'max', 'max / p50', 'errors', 'non-2xx', 'RSS before → after'],
          [r.baseline, ...r.cases].map((c) => [
            c.name,
            String(c.connections),
            show(c.requestsPerSecond, false),
            show(c.p50),
            show(c.p99),
            show(c.max),
            show(c.maxOverP50),
            show(c.errors, false),
            show(c.non2xx, false),
            `${show(c.rssBefore)} → ${show(c.rssAfter)}`,
          ]),
        ),
        `  GET /agents/{id} / bare route: ${show(r.agentReadOverBaseline)}; ` +
          `embedQuery alone at ${r.embedQueryAlone.connections} in flight: ${show(r.embedQueryAlone.queriesPerSecond)}, datastore query / embedQuery ${show(r.datastoreQueryOverEmbedQuery)}`,
        ...goalLines(r.goals),
      ].join('\n'),
    )
    .join('\n\n');
}

export function channelsTable(r: ChannelsResult): string {
  const rows = [
    ['POST /agents/{id}/query, same questions (baseline)', show(r.query.p50), show(r.query.p90), show(r.query.max), '1 x', ''],
    ...r.cases.map((c) => [c.name, show(c.latency.p50), show(c.latency.p90), show(c.latency.max), show(c.p50OverQuery), show(c.queryAlongside.p50)]),
  ];
  const step = (s: { p50: Figure; p90: Figure }) => `${s.p50.value} / ${s.p90.value}`;
  const steps = r.cases.map((c) => [
    c.name,
    step(c.stages.toStored),
    step(c.stages.storedToAnswerClaimed),
    step(c.stages.answerClaimedToAnswerStored),
    step(c.stages.answerStoredToSendQueued),
    step(c.stages.sendQueuedToSendClaimed),
    step(c.stages.sendClaimedToVendor),
  ]);
  return [
    `Channels (${r.store}, built-in model, ${show(r.messages, false)} messages per channel, one at a time, each a new chat or thread): ` +
      'handed to the vendor side → reply at the vendor side',
    table(['', 'p50', 'p90', 'max', 'p50 / query', 'query p50 alongside'], rows),
    '',
    'Steps of a message, p50 / p90 in ms (store timestamps and job claims)',
    table(['', '→ stored', '→ answer claimed', '→ answer stored', '→ send queued', '→ send claimed', '→ at vendor'], steps),
  ].join('\n');
}

export function siteCrawlTable(r: SiteCrawlResult): string {
  const { resync } = r;
  return [
    `Website crawl (${r.store}, loopback site of ${r.pages} pages with a sitemap and an ETag each, ${r.chunks} chunks, ` +
      `${r.embedderThreads} embedder threads, built-in model)`,
    table(
      ['figure', 'value'],
      [
        ['POST web_site → crawled, every page synched', show(r.crawl)],
        ['  of which POST → crawl finished (pages fetched)', show(r.crawlFetched)],
        ['crawl + index throughput', show(r.pagesPerSecond)],
        ['embedder alone, same chunk texts', show(r.embedderAlone)],
        ['texts embedded: pages / embedder alone', `${show(r.crawlWork.embeddedTexts)} / ${show(r.embedderTexts)}`],
        ['embedder throughput', show(r.embedderPagesPerSecond)],
        ['crawl + index pages/s / embedder pages/s', show(r.crawlOverEmbedderThroughput)],
        ['crawl + index / embedder (CPU seconds)', show(r.crawlOverEmbedderCpu)],
        ['re-sync (unchanged): POST resync → crawl finished', show(resync.wall)],
        ["  the crawl's own startedAt → finishedAt", show(resync.crawlOwn)],
        ['re-sync / first crawl', show(resync.overFirstCrawl)],
        ['re-sync: page requests / answered 304', `${show(resync.pageRequests)} / ${show(resync.notModified)}`],
        ['re-sync: embedding calls (texts)', `${show(resync.work.embeddingCalls)} (${show(resync.work.embeddedTexts)})`],
        [
          're-sync: index writes / pages re-queued / lastSynch moved',
          `${show(resync.work.indexWrites)} / ${show(resync.work.pagesQueued)} / ${show(resync.lastSynchChanged)}`,
        ],
        ['re-sync crawl: changed / unchanged / removed', `${resync.counts.changed} / ${resync.counts.unchanged} / ${resync.counts.removed}`],
        ["other processes' CPU share: crawl", show(r.cpu.crawl.othersShare)],
        ["other processes' CPU share: embedder", show(r.cpu.embedderAlone.othersShare)],
      ],
    ),
    ...goalLines(r.goals),
  ].join('\n');
}
