import { waitForDatasource } from './datasources.js';
import type { TestParley } from './parley.js';

/** What the shop's agent knows, and so what its answers about opening hours say ("9 am"). */
export const SHOP_HOURS = 'The shop opens at 9 am and closes at 6 pm, Monday to Saturday. On Sundays the shop is closed.';

/** An agent of the workspace answering from a datastore holding {@link SHOP_HOURS}, indexed: its id. */
export async function newShopAgent(parley: TestParley, key: string, name: string): Promise<string> {
  const datastore = await parley.call<{ id: string }>('POST', '/datastores', { key, body: { name: `${name} help` } });
  const source = await parley.call<{ id: string }>('POST', '/datasources', {
    key,
    body: { type: 'text', datastoreId: datastore.body.id, name: 'Opening hours', text: SHOP_HOURS },
  });
  await waitForDatasource(parley, key, source.body.id);
  const agent = await parley.call<{ id: string }>('POST', '/agents', {
    key,
    body: { name, tools: [{ type: 'datastore', datastoreId: datastore.body.id }] },
  });
  return agent.body.id;
}
