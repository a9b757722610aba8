import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { ModelProviderTable, ModelRouteTable } from '../integration-tables.js';
import type { ModelProviderChanges, ModelProviderRecord, ModelProviderStore, ModelRouteRecord, ProviderKind } from '../ports/model-provider-store.js';
import { OwnedRecords } from './owned-rows.js';

const toProvider = (row: Selectable<ModelProviderTable>): ModelProviderRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  kind: row.kind as ProviderKind,
  baseUrl: row.base_url,
  sealedApiKey: row.sealed_api_key,
  apiKeyHint: row.api_key_hint,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRoute = (row: Selectable<ModelRouteTable>): ModelRouteRecord => ({
  workspaceId: row.workspace_id,
  modelName: row.model_name,
  providerId: row.provider_id,
  providerModel: row.provider_model,
  updatedAt: row.updated_at,
});

export class SqlModelProviderStore extends OwnedRecords<'model_provider', ModelProviderRecord> implements ModelProviderStore {
  constructor(db: Kysely<Database>) {
    super(db, 'model_provider', toProvider);
  }

  async create(provider: ModelProviderRecord): Promise<void> {
    await this.db
      .insertInto('model_provider')
      .values({
        id: provider.id,
        workspace_id: provider.workspaceId,
        name: provider.name,
        kind: provider.kind,
        base_url: provider.baseUrl,
        sealed_api_key: provider.sealedApiKey,
        api_key_hint: provider.apiKeyHint,
        created_at: provider.createdAt,
        updated_at: provider.updatedAt,
      })
      .execute();
  }

  update(workspaceId: string, id: string, changes: ModelProviderChanges, at: string): Promise<ModelProviderRecord | undefined> {
    return this.updateColumns(workspaceId, id, {
      name: changes.name,
      base_url: changes.baseUrl,
      sealed_api_key: changes.sealedApiKey,
      api_key_hint: changes.apiKeyHint,
      updated_at: at,
    });
  }

  delete(workspaceId: string, id: string): Promise<ModelProviderRecord | undefined> {
    return this.deleteRecord(workspaceId, id);
  }

  async routes(workspaceId: string): Promise<ModelRouteRecord[]> {
    const rows = await this.db.selectFrom('model_route').selectAll().where('workspace_id', '=', workspaceId).orderBy('model_name').execute();
    return rows.map(toRoute);
  }

  async routeOf(workspaceId: string, modelName: string): Promise<{ route: ModelRouteRecord; provider: ModelProviderRecord } | undefined> {
    const row = await this.db
      .selectFrom('model_route')
      .innerJoin('model_provider', (join) =>
        join.onRef('model_provider.id', '=', 'model_route.provider_id').onRef('model_provider.workspace_id', '=', 'model_route.workspace_id'),
      )
      .selectAll('model_provider')
      .select(['model_route.model_name', 'model_route.provider_id', 'model_route.provider_model', 'model_route.updated_at as route_updated_at'])
      .where('model_route.workspace_id', '=', workspaceId)
      .where('model_route.model_name', '=', modelName)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { model_name, provider_id, provider_model, route_updated_at, ...provider } = row;
    return {
      route: { workspaceId, modelName: model_name, providerId: provider_id, providerModel: provider_model, updatedAt: route_updated_at },
      provider: toProvider(provider),
    };
  }

  async setRoute(route: ModelRouteRecord): Promise<void> {
    const values = { provider_id: route.providerId, provider_model: route.providerModel, updated_at: route.updatedAt };
    await this.db
      .insertInto('model_route')
      .values({ workspace_id: route.workspaceId, model_name: route.modelName, ...values })
      .onConflict((conflict) => conflict.columns(['workspace_id', 'model_name']).doUpdateSet(values))
      .execute();
  }

  async deleteRoute(workspaceId: string, modelName: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('model_route')
      .where('workspace_id', '=', workspaceId)
      .where('model_name', '=', modelName)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
