import type { TestParley, Workspace } from '../support/parley.js';
import type {
  AgentBody,
  CreatedWebhookBody,
  DatasourceBody,
  DatastoreBody,
  InvitedBody,
  IssuedKeyBody,
  ModelProviderBody,
} from '../support/bodies.js';
import type { ChannelConnectionBody } from '../../src/contract/channel-connections.js';
import { FAKE_BOT_TOKEN } from '../support/fake-telegram-bot-api.js';

/** What workspace A owns when the table's requests are made with workspace B's key. */
export interface Seed {
  a: Workspace;
  agentId: string;
  datastoreId: string;
  datasourceId: string;
  keyId: string;
  conversationId: string;
  messageId: string;
  webhookId: string;
  deliveryId: string;
  /** An automation's REST hook subscription (Zapier's), to a closed port. */
  hookId: string;
  memberId: string;
  /** A member who accepted, of workspace A alone: one an owner may make a reset link for. */
  activeMemberId: string;
  /** An event of workspace A: another workspace resuming after it must see none of A's. */
  eventId: string;
  /** A model provider of workspace A, serving its llm_a. */
  modelProviderId: string;
  /** Workspace A's agent's Telegram connection (polling a closed port). */
  channelConnectionId: string;
  savedReplyId: string;
  labelId: string;
  /** A file kept with a message of A's conversation (as an e-mail's attachment is). */
  attachment: { messageId: string; id: string };
}

export interface TableRequest {
  path: string;
  body?: unknown;
  /** A body sent as written (a multipart upload), with its Content-Type. */
  raw?: { body: string; contentType: string };
}

/** How `callParley` sends a table request's body. */
export const bodyOptions = ({ body, raw }: TableRequest): { body?: unknown; raw?: string; headers?: Record<string, string> } =>
  raw === undefined ? { body } : { raw: raw.body, headers: { 'content-type': raw.contentType } };

/** A multipart/form-data body of one text file and plain fields, as form libraries write it. */
export function multipartBody(file: { name: string; text: string }, fields: Record<string, string> = {}): NonNullable<TableRequest['raw']> {
  const boundary = '----parley-test-boundary';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n${file.text}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * What a route answers a caller from another workspace. `forbidden`: 403 FORBIDDEN for A's resource.
 * A function: the route is not about one resource (a list, a create); it checks that nothing of A shows.
 * `visitors only`: the route serves a visitor's own conversation (the widget's calls): a key or a member
 * token is 401 there, whichever workspace it is of (test/api/visitor-conversation.test.ts covers visitors).
 */
export type ForeignExpectation = 'forbidden' | 'visitors only' | ((body: unknown, seed: Seed) => void);

export interface RouteCase {
  request(seed: Seed): TableRequest;
  foreign: ForeignExpectation;
  /**
   * Who of the workspace may call it (the README's permission rule): `admins` — owners and admins, in person
   * or through a key one of them made (or the operator's); any member, and any key, otherwise.
   */
  admins?: true;
  /** Owners only (with `admins`): an admin, in person or through a key, is refused too; the operator's key is not. */
  owners?: true;
  /** An endless event stream: what arrives before its `ready` event is checked. */
  stream?: true;
  /**
   * Open to callers without a key (the hosted widget's calls): without one, or with a visitor token, A's
   * private resource answers 404 like an unknown one; a wrong key is still 401.
   */
  keyless?: 'not found';
}

const mustNotMention = (body: unknown, seed: Seed) => {
  const text = JSON.stringify(body);
  const ids = [seed.agentId, seed.datastoreId, seed.datasourceId, seed.keyId, seed.conversationId, seed.messageId, seed.a.id];
  for (const id of [
    ...ids,
    seed.webhookId,
    seed.deliveryId,
    seed.hookId,
    seed.memberId,
    seed.activeMemberId,
    seed.modelProviderId,
    seed.channelConnectionId,
    seed.savedReplyId,
    seed.labelId,
    seed.attachment.messageId,
    seed.attachment.id,
    'a-admin@example.com',
    'A provider',
    'a-served-model',
  ]) {
    if (text.includes(id)) throw new Error(`another workspace's id ${id} leaked: ${text}`);
  }
};

/** Names of things the table's requests make, unique so each request makes one. */
let made = 0;

/**
 * Every authenticated route, keyed `METHOD /url` as Fastify registers it. The cross-workspace and 401
 * tests run over this table, and a test fails when the server has a route the table lacks.
 */
export const ROUTE_TABLE: Readonly<Record<string, RouteCase>> = {
  'GET /keys': { request: () => ({ path: '/keys' }), foreign: mustNotMention },
  'POST /keys': { request: () => ({ path: '/keys', body: {} }), foreign: mustNotMention },
  'DELETE /keys/:id': { request: (s) => ({ path: `/keys/${s.keyId}` }), foreign: 'forbidden' },

  'POST /agents': {
    request: (s) => ({ path: '/agents', body: { tools: [{ type: 'datastore', datastoreId: s.datastoreId }] } }),
    foreign: 'forbidden',
  },
  'GET /agents': { request: () => ({ path: '/agents' }), foreign: mustNotMention },
  'POST /agents/:id/query': {
    request: (s) => ({ path: `/agents/${s.agentId}/query`, body: { query: 'What are my notes?' } }),
    foreign: 'forbidden',
  },
  'GET /agents/:id': { request: (s) => ({ path: `/agents/${s.agentId}` }), foreign: 'forbidden', keyless: 'not found' },
  'PATCH /agents/:id': { request: (s) => ({ path: `/agents/${s.agentId}`, body: { name: 'taken over' } }), foreign: 'forbidden' },
  'DELETE /agents/:id': { request: (s) => ({ path: `/agents/${s.agentId}` }), foreign: 'forbidden' },

  'POST /datastores': { request: () => ({ path: '/datastores', body: {} }), foreign: mustNotMention },
  'GET /datastores': { request: () => ({ path: '/datastores' }), foreign: mustNotMention },
  'GET /datastores/:id': { request: (s) => ({ path: `/datastores/${s.datastoreId}` }), foreign: 'forbidden' },
  'PATCH /datastores/:id': {
    request: (s) => ({ path: `/datastores/${s.datastoreId}`, body: { name: 'taken over' } }),
    foreign: 'forbidden',
  },
  'DELETE /datastores/:id': { request: (s) => ({ path: `/datastores/${s.datastoreId}` }), foreign: 'forbidden' },

  'POST /datastores/:id/query': {
    request: (s) => ({ path: `/datastores/${s.datastoreId}/query`, body: { query: 'notes' } }),
    foreign: 'forbidden',
  },
  'POST /datastores/:id/query/langchain': {
    request: (s) => ({ path: `/datastores/${s.datastoreId}/query/langchain`, body: { query: 'notes' } }),
    foreign: 'forbidden',
  },

  'POST /external/datastores/file-upload/:id': {
    request: (s) => ({ path: `/external/datastores/file-upload/${s.datastoreId}`, raw: multipartBody({ name: 'planted.txt', text: 'planted' }) }),
    foreign: 'forbidden',
  },
  'POST /datasources': {
    request: (s) => ({ path: '/datasources', body: { type: 'text', datastoreId: s.datastoreId, text: 'planted' } }),
    foreign: 'forbidden',
  },
  'GET /datasources/:id': { request: (s) => ({ path: `/datasources/${s.datasourceId}` }), foreign: 'forbidden' },
  'GET /datasources/:id/chunks': { request: (s) => ({ path: `/datasources/${s.datasourceId}/chunks` }), foreign: 'forbidden' },
  'PATCH /datasources/:id': {
    request: (s) => ({ path: `/datasources/${s.datasourceId}`, body: { config: { refreshInterval: 'off' } } }),
    foreign: 'forbidden',
  },
  'DELETE /datasources/:id': { request: (s) => ({ path: `/datasources/${s.datasourceId}` }), foreign: 'forbidden' },
  'POST /datasources/:id/resync': { request: (s) => ({ path: `/datasources/${s.datasourceId}/resync` }), foreign: 'forbidden' },
  'GET /datastores/:id/datasources': { request: (s) => ({ path: `/datastores/${s.datastoreId}/datasources` }), foreign: 'forbidden' },

  'GET /conversations/:id': { request: (s) => ({ path: `/conversations/${s.conversationId}` }), foreign: 'forbidden', keyless: 'not found' },
  'PATCH /conversations/:conversationId': {
    request: (s) => ({ path: `/conversations/${s.conversationId}`, body: { isAiEnabled: false, status: 'RESOLVED' } }),
    foreign: 'forbidden',
  },
  'POST /conversations/update-status': {
    request: (s) => ({ path: `/conversations/update-status?agentId=${s.agentId}`, body: { status: 'RESOLVED' } }),
    foreign: 'forbidden',
  },
  'GET /user-conversations': { request: () => ({ path: '/user-conversations?fullConversation=true' }), foreign: mustNotMention },
  'GET /conversations': { request: () => ({ path: '/conversations?fullConversation=true' }), foreign: mustNotMention },
  'GET /user-conversations/export/:id': {
    request: (s) => ({ path: `/user-conversations/export/${s.conversationId}?format=json` }),
    foreign: 'forbidden',
  },
  'POST /conversations/:id/messages': {
    request: (s) => ({ path: `/conversations/${s.conversationId}/messages`, body: { text: 'Taking over', memberId: s.memberId } }),
    foreign: 'forbidden',
  },
  'POST /conversations/eval-answer': {
    request: (s) => ({ path: '/conversations/eval-answer', body: { eval: 'good', messageId: s.messageId } }),
    foreign: 'forbidden',
    keyless: 'not found',
  },
  'GET /conversations/:conversationId/messages/:messageId/attachments/:attachmentId': {
    request: (s) => ({ path: `/conversations/${s.conversationId}/messages/${s.attachment.messageId}/attachments/${s.attachment.id}` }),
    foreign: 'forbidden',
  },
  'POST /conversations/:id/read': { request: (s) => ({ path: `/conversations/${s.conversationId}/read` }), foreign: 'forbidden' },
  'POST /conversations/:id/notes': {
    request: (s) => ({ path: `/conversations/${s.conversationId}/notes`, body: { text: 'A planted note', memberId: s.memberId } }),
    foreign: 'forbidden',
  },
  'POST /conversations/:id/labels': {
    request: (s) => ({ path: `/conversations/${s.conversationId}/labels`, body: { labelIds: [s.labelId] } }),
    foreign: 'forbidden',
  },
  'DELETE /conversations/:id/labels/:labelId': {
    request: (s) => ({ path: `/conversations/${s.conversationId}/labels/${s.labelId}` }),
    foreign: 'forbidden',
  },
  'POST /conversations/bulk-labels': {
    request: (s) => ({ path: '/conversations/bulk-labels', body: { conversationIds: [s.conversationId], add: [s.labelId] } }),
    foreign: 'forbidden',
  },
  'GET /saved-replies': { request: () => ({ path: '/saved-replies' }), foreign: mustNotMention },
  'POST /saved-replies': {
    request: () => ({ path: '/saved-replies', body: { shortcut: `b-hello-${++made}`, title: 'Hello', text: 'Hi!' } }),
    foreign: mustNotMention,
  },
  'PATCH /saved-replies/:id': { request: (s) => ({ path: `/saved-replies/${s.savedReplyId}`, body: { text: 'taken over' } }), foreign: 'forbidden' },
  'DELETE /saved-replies/:id': { request: (s) => ({ path: `/saved-replies/${s.savedReplyId}` }), foreign: 'forbidden' },
  'GET /labels': { request: () => ({ path: '/labels' }), foreign: mustNotMention },
  'POST /labels': { request: () => ({ path: '/labels', body: { name: `B label ${++made}` } }), foreign: mustNotMention },
  'PATCH /labels/:id': { request: (s) => ({ path: `/labels/${s.labelId}`, body: { name: 'taken over' } }), foreign: 'forbidden' },
  'DELETE /labels/:id': { request: (s) => ({ path: `/labels/${s.labelId}` }), foreign: 'forbidden' },
  'GET /user-conversations/counts': { request: () => ({ path: '/user-conversations/counts' }), foreign: mustNotMention },
  'GET /events/stream': { request: (s) => ({ path: `/events/stream?since=${s.eventId}` }), foreign: mustNotMention, stream: true },
  'GET /analytics': { request: () => ({ path: '/analytics' }), foreign: mustNotMention },
  'GET /agents/:id/widget': { request: (s) => ({ path: `/agents/${s.agentId}/widget` }), foreign: 'forbidden' },
  'GET /agents/:id/conversation': { request: (s) => ({ path: `/agents/${s.agentId}/conversation` }), foreign: 'visitors only' },
  'GET /agents/:id/conversation/events': { request: (s) => ({ path: `/agents/${s.agentId}/conversation/events` }), foreign: 'visitors only' },
  'POST /agents/:id/conversation/status': {
    request: (s) => ({ path: `/agents/${s.agentId}/conversation/status`, body: { status: 'RESOLVED' } }),
    foreign: 'visitors only',
  },
  'POST /agents/:id/conversation/ratings': {
    request: (s) => ({ path: `/agents/${s.agentId}/conversation/ratings`, body: { messageId: s.messageId, eval: 'BAD' } }),
    foreign: 'visitors only',
  },
  'PUT /agents/:id/conversation/contact': {
    request: (s) => ({ path: `/agents/${s.agentId}/conversation/contact`, body: { email: 'thief@example.com' } }),
    foreign: 'visitors only',
  },
  'POST /messages/:id/eval': { request: (s) => ({ path: `/messages/${s.messageId}/eval`, body: { eval: 'BAD' } }), foreign: 'forbidden' },

  'POST /webhooks': {
    admins: true,
    request: () => ({ path: '/webhooks', body: { url: 'http://127.0.0.1:9/b', events: ['message.created'] } }),
    foreign: mustNotMention,
  },
  'GET /webhooks': { admins: true, request: () => ({ path: '/webhooks' }), foreign: mustNotMention },
  'GET /webhooks/:id': { admins: true, request: (s) => ({ path: `/webhooks/${s.webhookId}` }), foreign: 'forbidden' },
  'PATCH /webhooks/:id': {
    admins: true,
    request: (s) => ({ path: `/webhooks/${s.webhookId}`, body: { url: 'http://127.0.0.1:9/stolen' } }),
    foreign: 'forbidden',
  },
  'DELETE /webhooks/:id': { admins: true, request: (s) => ({ path: `/webhooks/${s.webhookId}` }), foreign: 'forbidden' },
  'GET /webhooks/:id/deliveries': { admins: true, request: (s) => ({ path: `/webhooks/${s.webhookId}/deliveries` }), foreign: 'forbidden' },
  'POST /webhooks/:id/deliveries/:deliveryId/replay': {
    admins: true,
    request: (s) => ({ path: `/webhooks/${s.webhookId}/deliveries/${s.deliveryId}/replay` }),
    foreign: 'forbidden',
  },

  'POST /hooks': {
    admins: true,
    request: () => ({ path: '/hooks', body: { target_url: 'http://127.0.0.1:9/b', event: 'new_message' } }),
    foreign: mustNotMention,
  },
  'GET /hooks/samples': { admins: true, request: () => ({ path: '/hooks/samples?event=new_message' }), foreign: mustNotMention },
  'DELETE /hooks/:id': { admins: true, request: (s) => ({ path: `/hooks/${s.hookId}` }), foreign: 'forbidden' },

  'GET /workspace/settings': { request: () => ({ path: '/workspace/settings' }), foreign: mustNotMention },
  'PATCH /workspace/settings': {
    admins: true,
    request: () => ({ path: '/workspace/settings', body: { notifications: { 'conversation-resolved': { customer: true } } } }),
    foreign: mustNotMention,
  },
  'GET /workspace/email-deliveries': { admins: true, request: () => ({ path: '/workspace/email-deliveries' }), foreign: mustNotMention },
  'GET /members': { request: () => ({ path: '/members' }), foreign: mustNotMention },
  'POST /members': {
    admins: true,
    request: () => ({ path: '/members', body: { email: `b-admin-${Math.random().toString(36).slice(2, 8)}@example.com` } }),
    foreign: mustNotMention,
  },
  'POST /members/:id/invitation': { admins: true, request: (s) => ({ path: `/members/${s.memberId}/invitation` }), foreign: 'forbidden' },
  'POST /members/:id/password-reset': {
    admins: true,
    owners: true,
    request: (s) => ({ path: `/members/${s.activeMemberId}/password-reset` }),
    foreign: 'forbidden',
  },
  'PATCH /members/:id': { admins: true, request: (s) => ({ path: `/members/${s.memberId}`, body: { role: 'member' } }), foreign: 'forbidden' },
  'DELETE /members/:id': { admins: true, request: (s) => ({ path: `/members/${s.memberId}` }), foreign: 'forbidden' },
  'GET /models': { request: () => ({ path: '/models' }), foreign: mustNotMention },
  'GET /model-providers': { admins: true, request: () => ({ path: '/model-providers' }), foreign: mustNotMention },
  'POST /model-providers': {
    admins: true,
    request: () => ({ path: '/model-providers', body: { name: 'B provider', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' } }),
    foreign: mustNotMention,
  },
  'PATCH /model-providers/:id': {
    admins: true,
    request: (s) => ({ path: `/model-providers/${s.modelProviderId}`, body: { baseUrl: 'http://127.0.0.1:9/stolen/v1' } }),
    foreign: 'forbidden',
  },
  'DELETE /model-providers/:id': { admins: true, request: (s) => ({ path: `/model-providers/${s.modelProviderId}` }), foreign: 'forbidden' },
  'POST /model-providers/:id/test': { admins: true, request: (s) => ({ path: `/model-providers/${s.modelProviderId}/test` }), foreign: 'forbidden' },
  'PUT /model-routes/:modelName': {
    admins: true,
    request: (s) => ({ path: '/model-routes/llm_b', body: { providerId: s.modelProviderId, model: 'stolen' } }),
    foreign: 'forbidden',
  },
  'DELETE /model-routes/:modelName': { admins: true, request: () => ({ path: '/model-routes/llm_a' }), foreign: mustNotMention },

  'GET /agents/:agentId/channels': { admins: true, request: (s) => ({ path: `/agents/${s.agentId}/channels` }), foreign: 'forbidden' },
  'POST /agents/:agentId/channels': {
    admins: true,
    request: (s) => ({
      path: `/agents/${s.agentId}/channels`,
      body: { channel: 'mail', config: { address: 'stolen@example.com', inbound: 'smtp' } },
    }),
    foreign: 'forbidden',
  },
  'GET /channels/:id': { admins: true, request: (s) => ({ path: `/channels/${s.channelConnectionId}` }), foreign: 'forbidden' },
  'PATCH /channels/:id': {
    admins: true,
    request: (s) => ({ path: `/channels/${s.channelConnectionId}`, body: { config: { apiBaseUrl: 'http://127.0.0.1:9/stolen' } } }),
    foreign: 'forbidden',
  },
  'DELETE /channels/:id': { admins: true, request: (s) => ({ path: `/channels/${s.channelConnectionId}` }), foreign: 'forbidden' },
  'POST /channels/:id/test': { admins: true, request: (s) => ({ path: `/channels/${s.channelConnectionId}/test` }), foreign: 'forbidden' },
};

/** Creates what workspace A owns for the table's requests. */
export async function seedWorkspace(parley: TestParley): Promise<Seed> {
  const a = await parley.newWorkspace();
  const datastoreId = (await parley.call<DatastoreBody>('POST', '/datastores', { key: a.key, body: { name: 'A data' } })).body.id;
  const agentId = (
    await parley.call<AgentBody>('POST', '/agents', { key: a.key, body: { name: 'A agent', tools: [{ type: 'datastore', datastoreId }] } })
  ).body.id;
  const keyId = (await parley.call<IssuedKeyBody>('POST', '/keys', { key: a.key, body: { name: 'spare' } })).body.id;
  const datasourceId = (
    await parley.call<DatasourceBody>('POST', '/datasources', {
      key: a.key,
      body: { type: 'text', datastoreId, name: 'A notes', text: 'Private notes of A.' },
    })
  ).body.id;
  const conversations = parley.core.services.conversations;
  const { conversation } = await conversations.intake.start(a.id, { agentId, channel: 'api' });
  const { message } = await conversations.messages.add(a.id, conversation.id, { from: 'human', text: 'A private question' });
  const withFile = await conversations.intake.receive(a.id, {
    agentId,
    channel: 'api',
    conversationId: conversation.id,
    text: 'A private file',
    attachments: [{ name: 'a-notes.txt', mimeType: 'text/plain', content: Buffer.from('Private notes of A, attached.') }],
  });
  const attachment = { messageId: withFile.message.id, id: String(withFile.message.attachments[0]?.id) };
  const webhookId = (
    await parley.call<CreatedWebhookBody>('POST', '/webhooks', { key: a.key, body: { url: 'http://127.0.0.1:9/a', events: ['message.created'] } })
  ).body.id;
  const hookId = (
    await parley.call<{ id: string }>('POST', '/hooks', { key: a.key, body: { target_url: 'http://127.0.0.1:9/a', event: 'new_message' } })
  ).body.id;
  const memberId = (await parley.call<InvitedBody>('POST', '/members', { key: a.key, body: { email: 'a-admin@example.com' } })).body.id;
  const activeMemberId = (await parley.newMember(a.id, 'member')).memberId;
  // A delivery as the dispatcher would queue it (no workers run here); its job targets a closed port.
  const delivery = {
    id: `dlv_seed_${webhookId}`,
    workspaceId: a.id,
    eventId: 'evt_seed',
    eventType: 'message.created',
    channel: 'webhook' as const,
    endpointId: webhookId,
    recipients: null,
    replayOf: null,
    body: '{}',
    createdAt: new Date().toISOString(),
  };
  await parley.core.store.deliveries.createWithJob(delivery, {
    id: `job_${delivery.id}`,
    kind: 'deliver-webhook',
    workspaceId: a.id,
    payload: { deliveryId: delivery.id },
    maxAttempts: 1,
  });
  const [event] = await parley.core.store.outbox.list({ workspaceId: a.id, limit: 1 });
  const modelProviderId = (
    await parley.call<ModelProviderBody>('POST', '/model-providers', {
      key: a.key,
      body: { name: 'A provider', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-a-provider-secret-key' },
    })
  ).body.id;
  await parley.call('PUT', '/model-routes/llm_a', { key: a.key, body: { providerId: modelProviderId, model: 'a-served-model' } });
  const channelConnectionId = (
    await parley.call<ChannelConnectionBody>('POST', `/agents/${agentId}/channels`, {
      key: a.key,
      body: { channel: 'telegram', config: { botToken: FAKE_BOT_TOKEN, mode: 'polling', apiBaseUrl: 'http://127.0.0.1:9' } },
    })
  ).body.id;
  const savedReplyId = (
    await parley.call<{ id: string }>('POST', '/saved-replies', { key: a.key, body: { shortcut: 'a-refund', title: 'A refund', text: 'A canned' } })
  ).body.id;
  const labelId = (await parley.call<{ id: string }>('POST', '/labels', { key: a.key, body: { name: 'A label', color: '#ff0000' } })).body.id;
  await parley.call('POST', `/conversations/${conversation.id}/labels`, { key: a.key, body: { labelIds: [labelId] } });
  return {
    a,
    eventId: event!.id,
    agentId,
    datastoreId,
    datasourceId,
    keyId,
    conversationId: conversation.id,
    messageId: message.id,
    webhookId,
    deliveryId: delivery.id,
    hookId,
    memberId,
    activeMemberId,
    modelProviderId,
    channelConnectionId,
    savedReplyId,
    labelId,
    attachment,
  };
}

/**
 * Workspace routes the server registered, as table keys: all but the probes, the dashboard's session
 * endpoints (`/auth/*`, `/me`: a person's own, not a workspace's; test/api/auth.test.ts covers them) and
 * vendors' deliveries to a channel connection (verified by the connection's secret: test/api/telegram-channel.test.ts).
 */
export const authenticatedRoutes = (parley: TestParley): string[] =>
  parley.app.registeredRoutes
    .filter(
      (route) => !route.hidden && !['/healthz', '/readyz', '/me', '/channels/:id/inbound'].includes(route.url) && !route.url.startsWith('/auth/'),
    )
    .map((route) => `${route.method} ${route.url}`);
