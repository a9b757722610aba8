/**
 * The tables as both dialects store them. Times are ISO 8601 UTC text so that both stores sort and
 * return them identically; JSON values are text for the same reason.
 */
export interface WorkspaceTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyTable {
  id: string;
  workspace_id: string;
  name: string;
  /** The first characters of the key, shown so people can tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, hex; the key itself is never stored. */
  hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AgentTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  model_name: string;
  temperature: number;
  visibility: string;
  system_prompt: string | null;
  user_prompt: string;
  icon_url: string | null;
  handle: string | null;
  created_at: string;
  updated_at: string;
}

export interface AgentDatastoreTable {
  agent_id: string;
  datastore_id: string;
  workspace_id: string;
  position: number;
}

export interface DatastoreTable {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  type: string;
  visibility: string;
  created_at: string;
  updated_at: string;
}


export interface Database {
  workspace: WorkspaceTable;
  api_key: ApiKeyTable;
  agent: AgentTable;
  agent_datastore: AgentDatastoreTable;
  datastore: DatastoreTable;
}
