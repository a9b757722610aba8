import { startTestParley } from '../test/support/parley.js';
import type { ScratchStore, StoreKind } from '../test/support/stores.js';
import { INSTANT_MODEL } from './agent-query.js';
import { readArticles } from './covid-qa-fixture.js';
import { expectOk, stringField } from './in-process-parley.js';

/** A bench datastore with some articles in it and an agent that answers from it. */
export interface SeededAgent {
  key: string;
  agentId: string;
  datastoreId: string;
}

/** Seeds the scratch store through the API of an in-process Parley, closed before the measured server starts. */
export async function seedAgent(store: StoreKind, scratch: ScratchStore, articles: number, models: string): Promise<SeededAgent> {
  const parley = await startTestParley(store, { scratch, workers: true, env: { PARLEY_MODELS: models } });
  try {
    const { key } = await parley.newWorkspace('bench');
    const call = async (method: string, route: string, body?: unknown) => {
      const { status, body: answer } = await parley.call<unknown>(method, route, { key, body });
      return expectOk(`${method} ${route}`, { status, body: answer });
    };
    const datastoreId = stringField(await call('POST', '/datastores', { name: 'load' }), 'id');
    const chosen = readArticles().slice(0, articles);
    for (const article of chosen) {
      await call('POST', '/datasources', { datastoreId, type: 'text', name: article.title.slice(0, 500) || article.id, text: article.text });
    }
    for (;;) {
      const list = await call('GET', `/datastores/${datastoreId}/datasources`);
      const statuses = Array.isArray(list) ? list.map((item: unknown) => stringField(item, 'status')) : [];
      if (statuses.some((status) => status === 'error' || status === 'usage_limit_reached'))
        throw new Error(`ingestion failed: ${statuses.join(', ')}`);
      if (statuses.length === chosen.length && statuses.every((status) => status === 'synched')) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const agent = await call('POST', '/agents', { name: 'load', modelName: INSTANT_MODEL, tools: [{ type: 'datastore', datastoreId }] });
    return { key, agentId: stringField(agent, 'id'), datastoreId };
  } finally {
    await parley.close();
  }
}
