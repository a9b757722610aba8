/**
 * The tables of what connects a workspace to the outside: webhooks and their deliveries, model providers
 * and routes, channel connections. Part of the schema in schema.ts (same conventions: ISO 8601 UTC text
 * times, JSON as text, booleans as 0/1).
 */
export interface WebhookEndpointTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string;
  secret: string;
  enabled: number;
  /** `webhooks` or `automation` (a REST hook subscription). */
  source: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryTable {
  id: string;
  workspace_id: string;
  event_id: string;
  event_type: string;
  channel: string;
  endpoint_id: string | null;
  /** JSON array of e-mail addresses (e-mail deliveries). */
  recipients: string | null;
  replay_of: string | null;
  /** The event as sent: the same bytes on every attempt and replay. */
  body: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface DeliveryAttemptTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface ModelProviderTable {
  id: string;
  workspace_id: string;
  name: string;
  kind: string;
  base_url: string | null;
  /** AES-256-GCM, sealed by the domain; never the key in clear. */
  sealed_api_key: string | null;
  api_key_hint: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChannelConnectionTable {
  id: string;
  workspace_id: string;
  agent_id: string;
  channel: string;
  enabled: number;
  /** JSON: the settings without secrets. */
  settings: string;
  /** AES-256-GCM of the JSON secrets, sealed by the domain; never a secret in clear. */
  sealed_secrets: string;
  /** JSON: a hint of each secret, by name. */
  secret_hints: string;
  cursor: string | null;
  last_inbound_at: string | null;
  last_outbound_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ModelRouteTable {
  workspace_id: string;
  model_name: string;
  provider_id: string;
  provider_model: string;
  updated_at: string;
}
