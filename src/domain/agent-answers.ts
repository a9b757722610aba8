import { visitorContextOf } from './visitor-context.js';
import { streamAnswer, type AnswerUsage } from '../llm/chat/stream-answer.js';
import { AnswerCitations } from '../llm/prompt/answer-citations.js';
import { assemblePrompt } from '../llm/prompt/assemble-prompt.js';
import type { Retriever } from '../rag/retrieve/retriever.js';
import type { AgentRecord, AnswerSourceRecord, Store } from '../store/store.js';
import { AnswerCheckpoints } from './answer-checkpoints.js';
import { answerSources } from './answer-sources.js';
import { isWorkspaceCaller, type Caller } from './callers.js';
import type { AgentQuestion } from './agent-question.js';
import { normalizeChannel, type ChannelInput } from './channels.js';
import type { ConversationUseCases } from './conversations/conversation-use-cases.js';
import { ParleyError, invalid, notFound } from '../errors.js';
import { fusionWeightsOf } from './fusion-weights.js';
import { callingModel, fromModelFailure } from './model-errors.js';
import { usableAgent } from './public-access.js';
import { agentAnswersIn } from './handoff.js';
import { publicQuestion, type PublicQuestionLimits } from './public-questions.js';
import { findKnowledgeGap } from './knowledge-gaps.js';
import { keylessExchange } from './visitor-access.js';
import type { QaMatcher } from './qa/qa-match.js';
import { storedAnswerTo, type StoredAnswer } from './qa/qa-precedence.js';
import type { VisitorTokens } from './visitor-tokens.js';
import type { AnsweredBy, ServedModel, WorkspaceModels } from './workspace-models.js';

/** Passages retrieved per question, before the context budget trims them. */
const PASSAGES = 8;
const BUDGETS = { historyTokens: 2_000, contextTokens: 3_000 };
/** The `model` of a message that is a Q&A entry's stored answer. */
const STORED_ANSWER_MODEL = 'parley:qa';

/** Ids of the exchange; all an answer has when the agent does not answer in the conversation (see `agentAnswersIn` in handoff.ts). */
export interface ExchangeIds {
  conversationId: string;
  visitorId: string;
  messageId: string;
  /** Lets a caller without a key continue this conversation (and only this one). */
  visitorToken: string;
}

/** What the agent wrote and stored: `messageId` is absent when nothing was written (the caller left first). */
export interface WrittenAnswer {
  messageId?: string;
  answer: string;
  sources: AnswerSourceRecord[];
  usage: AnswerUsage;
}

export interface AgentAnswer extends ExchangeIds {
  answer: string;
  sources: AnswerSourceRecord[];
  usage: AnswerUsage;
  /** Which model answered; for the workspace's own callers only (a visitor need not know the provider). */
  model?: AnsweredBy;
}

export interface AnswerOptions {
  /** Aborts the model call (the client went away); the partial answer is still stored. */
  signal: AbortSignal;
  /** Each text delta as the model produces it. */
  onDelta?: (delta: string) => void;
  /** The web page's origin (`Origin` header), when a browser asks; checked against the agent's allowed origins. */
  origin?: string;
}

/** Counts answers for the optional per-workspace quota. */
export interface QueryQuota {
  limit: number | null;
}

/**
 * A signed-in member asking on channel `dashboard`: the dashboard's playground, the team trying its agent.
 * API keys send `dashboard` too (the hosted service's clients do), so the channel alone does not say it.
 */
const isPlaygroundQuestion = (caller: Caller, channel: ChannelInput): boolean =>
  caller.kind === 'member' && normalizeChannel(channel) === 'dashboard';

/**
 * Answers a question put to an agent, in this order: store the human message, stop if the
 * agent does not answer in the conversation (switched off, or a person was asked for: `agentAnswersIn` in handoff.ts),
 * retrieve, assemble the prompt, run the model, store the answer.
 */
export class AgentAnswerService {
  constructor(
    private readonly store: Store,
    private readonly conversations: ConversationUseCases,
    private readonly retriever: Retriever,
    private readonly models: WorkspaceModels,
    private readonly quota: QueryQuota,
    private readonly tokens: VisitorTokens,
    private readonly publicLimits: PublicQuestionLimits,
    /** Best retrieval score below which an answer counts as a knowledge gap. */
    private readonly knowledgeGapScore: number,
    private readonly qaMatcher: QaMatcher,
  ) {}

  /**
   * A key or a member may ask any agent of its workspace anything, overrides included; visitors and anonymous
   * callers only public agents, as configured, in their own conversations (see {@link publicQuestion}).
   */
  async ask(caller: Caller, agentId: string, asked: AgentQuestion, options: AnswerOptions): Promise<AgentAnswer | ExchangeIds> {
    const agent = await usableAgent(this.store.agents, caller, agentId, options.origin);
    const question = isWorkspaceCaller(caller) ? asked : await this.keylessQuestion(agent, caller, asked);
    const modelName = question.modelName ?? agent.modelName;
    const served = await this.modelFor(agent.workspaceId, modelName, question.maxTokens);
    // Without a key the question comes from a web page (the widget): channel `website`.
    const channel = question.channel ?? (isWorkspaceCaller(caller) ? 'api' : 'website');
    const received = await this.conversations.intake.receive(agent.workspaceId, {
      conversationId: question.conversationId,
      visitorId: question.visitorId,
      agentId: agent.id,
      channel,
      playground: isPlaygroundQuestion(caller, channel),
      visitorContext: visitorContextOf(question.context),
      text: question.query,
      // A member trying the agent out (the dashboard's playground) has read their own question.
      ...(caller.kind === 'member' ? { read: true } : {}),
    });
    const { conversation, visitorId } = received;
    // Two first questions under one made-up id at once: the one that did not create it has no business in it.
    if (!isWorkspaceCaller(caller) && !received.created && (conversation.agentId !== agent.id || conversation.visitorId !== visitorId)) {
      throw notFound('Conversation', conversation.id);
    }
    const visitorToken = await this.tokens.issue({
      workspaceId: agent.workspaceId,
      agentId: agent.id,
      visitorId,
      conversationId: conversation.id,
    });
    const ids = { conversationId: conversation.id, visitorId, messageId: received.message.id, visitorToken };
    if (!received.agentAnswers) return ids;
    const written = await this.write(agent, conversation.id, question, served, options);
    const answeredBy = isWorkspaceCaller(caller) ? { model: served.answeredBy } : {};
    return { ...ids, ...written, messageId: written.messageId ?? ids.messageId, ...answeredBy };
  }

  /**
   * The agent's answer to a visitor's message already stored in its conversation (one that came in through a
   * channel): the same answer `ask` writes, without a caller to stream it to. Undefined when the agent no longer
   * answers there (a person took over meanwhile) or the message is gone.
   */
  async answerStored(workspaceId: string, conversationId: string, messageId: string, signal: AbortSignal): Promise<WrittenAnswer | undefined> {
    const conversation = await this.store.conversations.find(workspaceId, conversationId);
    const message = await this.store.messages.find(workspaceId, messageId);
    if (conversation === undefined || conversation.agentId === null || message === undefined || message.conversationId !== conversationId)
      return undefined;
    const agent = await this.store.agents.find(workspaceId, conversation.agentId);
    if (agent === undefined || !agentAnswersIn(conversation, agent)) return undefined;
    const served = await this.modelFor(workspaceId, agent.modelName, undefined);
    return this.write(agent, conversationId, { query: message.text }, served, { signal });
  }

  /** Retrieves, assembles the prompt, runs the model and stores the answer in the conversation, as it streams. */
  private async write(
    agent: AgentRecord,
    conversationId: string,
    question: AgentQuestion,
    served: ServedModel,
    options: Pick<AnswerOptions, 'signal' | 'onDelta'>,
  ): Promise<WrittenAnswer> {
    const { model, limits } = served;
    await this.checkQuota(agent.workspaceId);

    const datastores = await Promise.all(agent.datastoreIds.map((id) => this.store.datastores.find(agent.workspaceId, id)));
    const chunks = await callingModel(() =>
      this.retriever.retrieve({
        scope: {
          workspaceId: agent.workspaceId,
          datastoreIds: agent.datastoreIds,
          datasourceIds: question.datasourceIds,
          customIds: question.customIds,
        },
        query: question.query,
        topK: PASSAGES,
        mode: 'hybrid',
        weights: fusionWeightsOf(datastores.filter((datastore) => datastore !== undefined)),
      }),
    );
    // A Q&A entry asking the visitor's question takes precedence over the model (see qa-precedence.ts).
    const stored = await storedAnswerTo(this.store, this.qaMatcher, agent.workspaceId, question.query, chunks, options.signal);
    if (stored !== undefined) return this.writeStored(agent, conversationId, stored, options);
    const history = await this.conversations.views.messages(agent.workspaceId, conversationId);
    const prompt = assemblePrompt({
      systemPrompt: question.systemPrompt ?? agent.systemPrompt,
      userPromptTemplate: question.userPrompt ?? question.promptTemplate ?? agent.userPrompt,
      query: question.query,
      // System notices (a person was asked for, the conversation reopened) tell the visitor; the model is not told.
      history: history.filter((message) => message.from !== 'system').map((message) => ({ from: message.from, text: message.text })),
      passages: chunks.map((chunk) => ({ text: chunk.text, source: chunk.source, pageNumber: chunk.pageNumber })),
      budgets: BUDGETS,
    });
    const passages = prompt.passageIndexes.map((index) => chunks[index]!);
    // The text is rewritten as it streams so that its citations and its sources agree (see AnswerCitations).
    const citations = new AnswerCitations(passages.length);
    const sourcesSoFar = (complete: boolean) => answerSources(passages, { text: citations.text, cited: citations.cited, complete });
    const answer = new AnswerCheckpoints(this.conversations.messages, agent.workspaceId, conversationId, `${model.provider}:${model.modelId}`);
    const { onDelta } = options;
    // What a caller sees as it streams is stored as it streams.
    const pass = (settled: string) => {
      if (onDelta === undefined || settled === '') return;
      answer.add(settled);
      onDelta(settled);
    };
    const finished = await callingModel(() =>
      streamAnswer(
        model,
        prompt,
        {
          // The agent's saved temperature applies unless the question overrides it.
          temperature: question.temperature ?? agent.temperature,
          topP: question.topP,
          presencePenalty: question.presencePenalty,
          frequencyPenalty: question.frequencyPenalty,
          maxTokens: question.maxTokens,
        },
        { signal: options.signal, onDelta: (delta) => pass(citations.add(delta)), timeoutMs: limits.timeoutMs, secret: served.secret },
      ),
    ).catch(async (error: unknown) => {
      await answer.keepWhatStreamed(sourcesSoFar(false));
      throw error;
    });
    const complete = finished.finish === 'complete';
    // The rest held back (a citation or a line being written) goes out only to a caller still there.
    const rest = citations.end();
    if (complete) pass(rest);
    const text = citations.text;
    const sources = sourcesSoFar(complete);
    // A caller gone before the first word leaves no empty agent message behind.
    if (!complete && text === '') return { answer: '', sources, usage: finished.usage };
    const gap = findKnowledgeGap(
      chunks.map((chunk) => chunk.score),
      text,
      this.knowledgeGapScore,
    );
    const message = await answer.end({
      text,
      sources,
      usage: finished.usage,
      knowledgeGap: gap && { ...gap, question: question.query },
      interrupted: !complete,
    });
    return { messageId: message.id, answer: text, sources, usage: finished.usage };
  }

  /** The stored answer of a Q&A entry, word for word, citing the entry alone: no model runs, so no tokens are used. */
  private async writeStored(
    agent: AgentRecord,
    conversationId: string,
    stored: StoredAnswer,
    options: Pick<AnswerOptions, 'onDelta'>,
  ): Promise<WrittenAnswer> {
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const sources = answerSources([stored.chunk], { text: stored.answer, cited: [1], complete: true });
    options.onDelta?.(stored.answer);
    const answer = new AnswerCheckpoints(this.conversations.messages, agent.workspaceId, conversationId, STORED_ANSWER_MODEL);
    const message = await answer.end({ text: stored.answer, sources, usage, interrupted: false });
    return { messageId: message.id, answer: stored.answer, sources, usage };
  }

  /** A question without a key: no overrides, and only in a conversation of the caller's own (see {@link keylessExchange}). */
  private async keylessQuestion(agent: AgentRecord, caller: Caller, asked: AgentQuestion): Promise<AgentQuestion> {
    const question = publicQuestion(agent, asked, this.publicLimits);
    return { ...question, ...(await keylessExchange(this.store, agent, caller, question.conversationId, question.visitorId)) };
  }

  /** The model answering in the workspace, refusing an unknown model and a `maxTokens` above what the model may write. */
  private async modelFor(workspaceId: string, modelName: string, maxTokens: number | undefined): Promise<ServedModel> {
    let served: ServedModel;
    try {
      served = await this.models.resolve(workspaceId, modelName);
    } catch (error) {
      throw fromModelFailure(error);
    }
    const bound = served.limits.maxOutputTokens;
    if (maxTokens !== undefined && maxTokens > bound) {
      throw invalid(`maxTokens may be at most ${bound} for model ${modelName}`, [{ field: 'maxTokens', message: `must be <= ${bound}` }]);
    }
    return served;
  }

  private async checkQuota(workspaceId: string): Promise<void> {
    if (this.quota.limit === null) return;
    const monthStart = new Date();
    monthStart.setUTCDate(1);
    monthStart.setUTCHours(0, 0, 0, 0);
    const used = await this.store.messages.countAgentAnswersSince(workspaceId, monthStart.toISOString());
    if (used >= this.quota.limit) {
      throw new ParleyError('USAGE_LIMIT', `The workspace has used its ${this.quota.limit} agent answers this month`);
    }
  }
}
