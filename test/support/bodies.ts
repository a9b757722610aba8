/**
 * The API's response bodies as its route schemas declare them, for `parley.call<T>`: a test that reads a
 * field the API does not declare fails to compile.
 */
import type { EventEnvelope } from '../../src/events/event-types.js';
import type { ErrorBody } from '../../src/http/schemas.js';

export type { ErrorBody };
export type { AgentBody } from '../../src/http/routes/agents.js';
export type { AnalyticsBody } from '../../src/http/routes/analytics.js';
export type { AnswerBody, SourceBody } from '../../src/http/routes/agent-query.js';
export type {
  AccessTokenBody,
  InvitationBody,
  MeAnswerBody,
  ResetRequestedBody,
  SessionBody,
  SetupStatusBody,
  UserAnswerBody,
} from '../../src/http/routes/auth.js';
export type {
  ConversationBody,
  ListedConversationBody,
  PatchedConversationBody,
  SimplifiedConversationBody,
  TranscriptBody,
  UpdateStatusResultBody,
} from '../../src/http/routes/conversation-schemas.js';
export type { ChunkBody, DatasourceBody } from '../../src/http/routes/datasources.js';
export type { DatastoreBody, SearchHitBody } from '../../src/http/routes/datastores.js';
export type { HealthBody } from '../../src/http/routes/health.js';
export type { ApiKeyBody, IssuedKeyBody } from '../../src/http/routes/keys.js';
export type { InvitedBody, MemberBody, PasswordResetBody } from '../../src/http/routes/members.js';
export type { MessageBody, RatedMessageBody } from '../../src/http/routes/messages.js';
export type { ModelBody, ModelProviderBody, ProviderTestBody } from '../../src/http/routes/models.js';
export type { CreatedWebhookBody, DeliveryBody, ListedWebhookBody, WebhookBody } from '../../src/http/routes/webhooks.js';
export type { SettingsBody } from '../../src/http/routes/workspace.js';

/**
 * The event a webhook delivery carries (its raw body, or a delivery log entry's `body`), with the payload
 * its type says under `data`: e.g. ConversationEventPayload or DatasourceEventPayload from src/events.
 */
export const eventOf = <P = EventEnvelope['data']>(json: string): Omit<EventEnvelope, 'data'> & { data: P } => JSON.parse(json);

/** The request fields an error answer names (`details[].field`), in its order; none when it has no details. */
export const detailFields = (body: ErrorBody): string[] => (body.details ?? []).map((detail) => detail.field);

/**
 * A key the schema leaves undeclared in an open object (`additionalProperties: true`), typed `unknown`: each
 * use marks a field the API answers but its schema does not name (a schema gap, not a test's licence).
 */
export const undeclared = (object: Readonly<Record<string, unknown>>, key: string): unknown => object[key];
