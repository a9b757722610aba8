/** Agents: a model, its prompts and the datastores it answers from. */
import type { Changes, ScopedReads, Visibility } from './owned-records.js';

export interface AgentRecord {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  modelName: string;
  temperature: number;
  visibility: Visibility;
  systemPrompt: string | null;
  userPrompt: string;
  iconUrl: string | null;
  handle: string | null;
  /** Web origins (`https://example.com`) whose pages may call the agent's public endpoints; empty: any. */
  allowedOrigins: string[];
  /** The chat widget's settings that differ from the defaults (the domain knows them). */
  widget: Record<string, unknown>;
  /**
   * Whether the agent goes on answering after a person was asked for (status HUMAN_REQUESTED) until a member
   * takes the conversation over; false: it goes quiet as soon as a person is asked for.
   */
  keepAnsweringUntilTakenOver: boolean;
  /** Linked datastores, in the order the agent lists them. */
  datastoreIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** A workspace's agents with their links to datastores. */
export interface AgentStore extends ScopedReads<AgentRecord> {
  create(agent: AgentRecord): Promise<void>;
  update(workspaceId: string, id: string, changes: Changes<AgentRecord>, at: string): Promise<AgentRecord | undefined>;
  delete(workspaceId: string, id: string): Promise<AgentRecord | undefined>;
}
