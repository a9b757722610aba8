/**
 * The API's response bodies as its route schemas declare them, for `parley.call<T>`: a test that reads a
 * field the API does not declare fails to compile.
 */
import type { EventEnvelope, EventType } from '../../src/contract/events.js';
import type { ErrorBody } from '../../src/contract/errors.js';

export type { ErrorBody };
export type { AgentBody } from '../../src/contract/agents.js';
export type { AnalyticsBody } from '../../src/contract/analytics.js';
export type { AnswerBody, AnswerSourceBody as SourceBody } from '../../src/contract/answers.js';
export type {
  AccessTokenBody,
  InvitationBody,
  MeAnswerBody,
  ResetRequestedBody,
  SessionBody,
  SetupStatusBody,
  UserAnswerBody,
} from '../../src/contract/auth.js';
export type {
  ConversationBody,
  ListedConversationBody,
  MessageBody,
  PatchedConversationBody,
  RatedMessageBody,
  SimplifiedConversationBody,
  TranscriptBody,
  UpdateStatusResultBody,
} from '../../src/contract/conversations.js';
export type { ChunkBody, DatasourceBody } from '../../src/contract/datasources.js';
export type { DatastoreBody, SearchHitBody } from '../../src/contract/datastores.js';
export type { HealthBody } from '../../src/http/routes/health.js';
export type { ApiKeyBody, IssuedKeyBody } from '../../src/contract/keys.js';
export type { InvitedBody, MemberBody, PasswordResetBody } from '../../src/contract/members.js';
export type { ModelBody, ModelProviderBody, ProviderTestBody } from '../../src/contract/models.js';
export type { CreatedWebhookBody, DeliveryBody, ListedWebhookBody, WebhookBody } from '../../src/contract/webhooks.js';
export type { WorkspaceSettingsBody as SettingsBody } from '../../src/contract/workspace.js';

/**
 * The event a webhook delivery carries (its raw body, or a delivery log entry's `body`), with the payload
 * its type says under `data` (src/contract/events.ts); `Type` names the types the caller subscribed to.
 */
export const eventOf = <Type extends EventType = EventType>(json: string): EventEnvelope<Type> => JSON.parse(json);

/** The request fields an error answer names (`details[].field`), in its order; none when it has no details. */
export const detailFields = (body: ErrorBody): string[] => (body.details ?? []).map((detail) => detail.field);

/**
 * A key the schema leaves undeclared in an open object (`additionalProperties: true`), typed `unknown`: each
 * use marks a field the API answers but its schema does not name (a schema gap, not a test's licence).
 */
export const undeclared = (object: Readonly<Record<string, unknown>>, key: string): unknown => object[key];
