import type { ModelRegistry } from '../llm/chat/model-registry.js';
import type { Embedder } from '../llm/embeddings/embedder.js';
import { Retriever } from '../rag/retrieve/retriever.js';
import type { Store } from '../store/store.js';
import { DatastoreSearchService } from './datastore-search.js';
import { AgentAnswerService } from './agent-answers.js';
import { QaMatcher } from './qa/qa-match.js';
import { AgentService } from './agents.js';
import { createConversationUseCases, type ConversationUseCases } from './conversations/conversation-use-cases.js';
import { DatasourceService, type DatasourceServiceOptions } from './datasources.js';
import { DatastoreService } from './datastores.js';
import { KeyService } from './keys.js';
import { WorkspaceService } from './workspaces.js';
import { MemberService, type InvitationMailer } from './members.js';
import { AccessTokens } from './access-tokens.js';
import { AccountService, type PasswordResetMailer } from './accounts.js';
import { OneTimeLinks } from './one-time-links.js';
import { TokenGenerations } from './token-generations.js';
import { NotificationService } from './notifications.js';
import { WebhookService } from './webhooks.js';
import { SavedReplyService } from './saved-replies.js';
import { LabelService } from './labels.js';
import { VisitorTokens } from './visitor-tokens.js';
import { PublicAccess } from './public-access.js';
import { RateLimitSettings, type RateLimits } from './rate-limits.js';
import { EventStreamService } from './event-streams.js';
import { VisitorConversationService } from './visitor-conversations.js';
import { AnalyticsService } from './analytics.js';
import { ModelProviderService } from './model-providers.js';
import { SecretBox } from './secret-box.js';
import { WorkspaceModels } from './workspace-models.js';
import type { Signals } from './signals.js';
import { ChannelConnectionService, type ChannelConnectors } from './channel-connections/channel-connections.js';
import { ChannelInbox } from './channel-connections/channel-inbox.js';

/** Every use case, wired to one store; what the HTTP layer and the CLI call. */
export interface Services {
  readonly keys: KeyService;
  readonly workspaces: WorkspaceService;
  readonly agents: AgentService;
  readonly datastores: DatastoreService;
  readonly datasources: DatasourceService;
  readonly search: DatastoreSearchService;
  readonly conversations: ConversationUseCases;
  readonly answers: AgentAnswerService;
  readonly webhooks: WebhookService;
  readonly savedReplies: SavedReplyService;
  readonly labels: LabelService;
  readonly members: MemberService;
  readonly notifications: NotificationService;
  readonly visitorTokens: VisitorTokens;
  readonly publicAccess: PublicAccess;
  readonly rateLimits: RateLimitSettings;
  readonly accounts: AccountService;
  readonly accessTokens: AccessTokens;
  /** Revocation of access tokens, checked in memory; stopped with the store. */
  readonly tokenGenerations: TokenGenerations;
  readonly eventStreams: EventStreamService;
  readonly analytics: AnalyticsService;
  readonly visitorConversations: VisitorConversationService;
  /** Which model answers for each model name in a workspace. */
  readonly models: WorkspaceModels;
  readonly modelProviders: ModelProviderService;
  /** Agents' connections to e-mail and messengers. */
  readonly channelConnections: ChannelConnectionService;
  /** Messages arriving through those connections. */
  readonly channelInbox: ChannelInbox;
}

export interface ServiceOptions extends DatasourceServiceOptions {
  /** The embedding model, started on first use. */
  embedder: () => Promise<Embedder>;
  /** Query vectors the retriever keeps; 0 for none. */
  queryCacheSize: number;
  /** The operator's models (the environment's configuration): what a workspace's own choices fall back to. */
  models: ModelRegistry;
  /** Seals the API keys of the providers workspaces connect (32 bytes, kept outside the database). */
  secretKey: Uint8Array;
  /** How providers are reached: through the outbound policy. */
  fetch?: typeof fetch;
  /** Agent answers per workspace per UTC month; null for no limit. */
  queryQuota: number | null;
  /** Longest question a caller without a key may ask, in characters. */
  publicQueryMaxChars: number;
  /** Best retrieval score below which an agent answer counts as a knowledge gap. */
  knowledgeGapScore: number;
  /** The server's rate limits; workspaces may set their own. */
  rateLimits: RateLimits;
  /** Where people reach Parley: the base of the links sent to them (read when a link is made). */
  publicUrl: () => string;
  /** Anyone may create an account (PARLEY_SIGNUP=open). */
  signUpOpen: boolean;
  /** Sends invitation e-mail; absent without SMTP. */
  invitationMailer?: InvitationMailer;
  /** Sends the reset links people ask for with "Forgot password?"; absent without SMTP. */
  resetMailer?: PasswordResetMailer;
  /** An SMTP server is configured. */
  emailEnabled: boolean;
  deliveryMaxAttempts: number;
  /** Who hears, in this process, of queued jobs, recorded events and overtaken datasources. */
  signals: Signals;
  /** Reports what failed in the background (a stream's read of new events, a reset e-mail). */
  onBackgroundError: (error: unknown) => void;
  /** Each channel's connector (e-mail, Telegram). */
  connectors: ChannelConnectors;
  /** The built-in SMTP listener's port (PARLEY_MAIL_INBOUND_PORT); null when it is off. */
  mailInboundPort: number | null;
}

export function createServices(store: Store, options: ServiceOptions): Services {
  const retriever = new Retriever(store.search, options.embedder, options.queryCacheSize);
  const eventStreams = new EventStreamService(store, options.onBackgroundError);
  options.signals.eventRecorded.subscribe((workspaceId) => eventStreams.wake(workspaceId));
  const conversations = createConversationUseCases(store, (workspaceId) => options.signals.eventRecorded.notify(workspaceId), options.tempDir);
  const visitorTokens = new VisitorTokens(store.secrets);
  const links = new OneTimeLinks(store, options.publicUrl);
  const tokenGenerations = new TokenGenerations(store.users);
  const keys = new KeyService(store, tokenGenerations);
  const accessTokens = new AccessTokens(store.secrets, tokenGenerations);
  const accounts = new AccountService(store, links, accessTokens, tokenGenerations, {
    signUpOpen: options.signUpOpen,
    resetMailer: options.resetMailer,
    onBackgroundError: options.onBackgroundError,
  });
  const datasources = new DatasourceService(store, options);
  const secretBox = new SecretBox(options.secretKey);
  const models = new WorkspaceModels(store, options.models, secretBox, options.fetch);
  const channelConnections = new ChannelConnectionService(store, secretBox, options.connectors, {
    publicUrl: options.publicUrl,
    mailInboundPort: options.mailInboundPort,
    signals: options.signals,
  });
  return {
    keys,
    workspaces: new WorkspaceService(store, keys),
    agents: new AgentService(store, options.models),
    datastores: new DatastoreService(store, (workspaceId, datastoreId) => datasources.reembedDatastore(workspaceId, datastoreId)),
    datasources,
    search: new DatastoreSearchService(store, retriever, options.publicUrl),
    conversations,
    answers: new AgentAnswerService(
      store,
      conversations,
      retriever,
      models,
      { limit: options.queryQuota },
      visitorTokens,
      { maxQueryChars: options.publicQueryMaxChars },
      options.knowledgeGapScore,
      new QaMatcher(options.embedder),
    ),
    webhooks: new WebhookService(store, {
      outbound: options.outbound,
      maxAttempts: options.deliveryMaxAttempts,
      signals: options.signals,
    }),
    savedReplies: new SavedReplyService(store),
    labels: new LabelService(store),
    members: new MemberService(store, accounts, links, tokenGenerations, options.invitationMailer),
    notifications: new NotificationService(store, options.emailEnabled),
    visitorTokens,
    publicAccess: new PublicAccess(store),
    rateLimits: new RateLimitSettings(store, options.rateLimits),
    accounts,
    accessTokens,
    tokenGenerations,
    eventStreams,
    analytics: new AnalyticsService(store),
    visitorConversations: new VisitorConversationService(store, conversations, eventStreams),
    models,
    modelProviders: new ModelProviderService(store, secretBox, models, { outbound: options.outbound, fetch: options.fetch }),
    channelConnections,
    channelInbox: new ChannelInbox(store, conversations, channelConnections, options.signals, { answerMaxAttempts: options.deliveryMaxAttempts }),
  };
}
