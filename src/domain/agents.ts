import type { AgentRecord, Changes, Store, Visibility } from '../store/store.js';
import { mergeWidgetSettings, widgetSettingsOf, type WidgetSettings, type WidgetSettingsPatch } from './widget-settings.js';
import type { Caller } from './callers.js';
import { usableAgent } from './public-access.js';
import { invalid, notFound } from '../errors.js';
import { newId, now } from './ids.js';
import { findInWorkspace } from './scoped.js';
import { UnknownModelError, type ModelRegistry } from '../llm/chat/model-registry.js';
import { fromModelFailure } from './model-errors.js';

/** A datastore the agent retrieves from; the only tool kind so far. */
export interface DatastoreTool {
  type: 'datastore';
  datastoreId: string;
}

/** What a client may send to create or change an agent; every field is optional. */
export interface AgentInput {
  name?: string;
  description?: string;
  modelName?: string;
  temperature?: number;
  visibility?: Visibility;
  systemPrompt?: string | null;
  userPrompt?: string;
  /** Deprecated: stands in for `userPrompt` when that is not given. */
  promptTemplate?: string;
  iconUrl?: string | null;
  handle?: string | null;
  /** Web origins whose pages may call the agent's public endpoints; empty allows any. */
  allowedOrigins?: string[];
  /** Merged into the stored widget settings (the lead form field by field). */
  widget?: WidgetSettingsPatch;
  /** Answer on after the visitor asked for a person, until a member takes over (see {@link agentAnswersIn}). */
  keepAnsweringUntilTakenOver?: boolean;
  tools?: DatastoreTool[];
}

export const AGENT_DEFAULTS = {
  name: 'Untitled agent',
  description: '',
  modelName: 'llm_b_mini',
  temperature: 0,
  visibility: 'private',
  userPrompt: '{query}',
  keepAnsweringUntilTakenOver: false,
} as const satisfies Partial<AgentRecord>;

export class AgentService {
  constructor(
    private readonly store: Store,
    /** Which names `modelName` may be (a name nobody configured is UNKNOWN_MODEL, as on a question). */
    private readonly models: Pick<ModelRegistry, 'modelNames'>,
  ) {}

  async create(workspaceId: string, input: AgentInput): Promise<AgentRecord> {
    const at = now();
    const changes = await this.toChanges(workspaceId, input, {});
    const agent: AgentRecord = {
      ...AGENT_DEFAULTS,
      systemPrompt: null,
      iconUrl: null,
      handle: null,
      allowedOrigins: [],
      widget: {},
      datastoreIds: [],
      ...changes,
      id: newId(),
      workspaceId,
      createdAt: at,
      updatedAt: at,
    };
    await this.store.agents.create(agent);
    return agent;
  }

  get(workspaceId: string, id: string): Promise<AgentRecord> {
    return findInWorkspace(this.store.agents, 'Agent', workspaceId, id);
  }

  list(workspaceId: string): Promise<AgentRecord[]> {
    return this.store.agents.list(workspaceId);
  }

  /** Changes only the fields sent; without `tools` the datastore links stay as they are. */
  async update(workspaceId: string, id: string, input: AgentInput): Promise<AgentRecord> {
    const current = await this.get(workspaceId, id);
    const changes = await this.toChanges(workspaceId, input, current.widget);
    const updated = await this.store.agents.update(workspaceId, id, changes, now());
    return updated ?? this.get(workspaceId, id);
  }

  /**
   * What the chat widget shows for a public agent (with a key, any agent of the workspace): its name, icon and
   * widget settings; a page of an origin the agent does not allow gets 403.
   */
  async widget(caller: Caller, id: string, origin?: string): Promise<{ agent: AgentRecord; settings: WidgetSettings }> {
    const agent = await usableAgent(this.store.agents, caller, id, origin);
    return { agent, settings: widgetSettingsOf(agent.widget) };
  }

  /**
   * A public agent as a caller without a key may see it (the hosted widget reads its look with `GET /agents/{id}`);
   * a private one answers like an unknown one.
   */
  async publicProfile(caller: Caller, id: string, origin?: string): Promise<{ agent: AgentRecord; settings: WidgetSettings }> {
    const owner = await this.store.agents.ownerOf(id);
    const agent = owner === undefined ? undefined : await this.store.agents.find(owner, id);
    if (agent?.visibility !== 'public') throw notFound('Agent', id);
    return this.widget(caller, id, origin);
  }

  async delete(workspaceId: string, id: string): Promise<AgentRecord> {
    await this.get(workspaceId, id);
    return (await this.store.agents.delete(workspaceId, id)) ?? this.get(workspaceId, id);
  }

  private async toChanges(workspaceId: string, input: AgentInput, storedWidget: WidgetSettingsPatch): Promise<Changes<AgentRecord>> {
    const { tools, promptTemplate, allowedOrigins, widget, ...fields } = input;
    const modelNames = this.models.modelNames();
    if (fields.modelName !== undefined && !modelNames.includes(fields.modelName)) {
      throw fromModelFailure(new UnknownModelError(fields.modelName, modelNames));
    }
    const changes: Changes<AgentRecord> = { ...fields };
    if (widget !== undefined) changes.widget = { ...mergeWidgetSettings(storedWidget, widget) };
    if (allowedOrigins !== undefined) changes.allowedOrigins = [...new Set(allowedOrigins.map(toOrigin))];
    if (changes.userPrompt === undefined && promptTemplate !== undefined) changes.userPrompt = promptTemplate;
    if (tools !== undefined) {
      const datastoreIds = [...new Set(tools.map((tool) => tool.datastoreId))];
      for (const datastoreId of datastoreIds) {
        await findInWorkspace(this.store.datastores, 'Datastore', workspaceId, datastoreId);
      }
      changes.datastoreIds = datastoreIds;
    }
    return changes;
  }
}

/**
 * A web origin as browsers send it in the `Origin` header: scheme, host and port only, lower case, the
 * default port left out. Anything with a path, query or credentials is refused rather than cut.
 */
function toOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const bare = url !== undefined && (url.protocol === 'https:' || url.protocol === 'http:') && value.replace(/\/$/, '').toLowerCase() === url.origin;
  if (url === undefined || !bare) {
    throw invalid(`${value} is not a web origin`, [
      { field: 'allowedOrigins', message: 'each entry must be an origin such as https://www.example.com (no path)' },
    ]);
  }
  return url.origin;
}
