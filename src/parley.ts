import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createServices, type Services } from './domain/services.js';
import { buildServer } from './http/server.js';
import { openStore } from './store/open-store.js';
import type { Store } from './store/store.js';

/** The model names every install accepts (spec §2); configured models add to them. */
export const BUILT_IN_MODEL_NAMES = ['llm_a', 'llm_b', 'llm_b_mini', 'llm_c'] as const;

/** Store and use cases, opened and migrated: what every CLI command starts from. */
export interface Core {
  store: Store;
  services: Services;
  close(): Promise<void>;
}

export async function openCore(config: Config): Promise<Core> {
  const store = await openStore(config.store);
  return { store, services: createServices(store), close: () => store.close() };
}

export interface RunningServer {
  app: FastifyInstance;
  /** The base URL the server answers on, with the port it really got. */
  url: string;
}

export async function startServer(config: Config, core: Core): Promise<RunningServer> {
  const app = await buildServer({
    services: core.services,
    store: core.store,
    modelNames: [...new Set([...BUILT_IN_MODEL_NAMES, ...config.extraModelNames])],
    logLevel: config.logLevel,
    bodyLimitBytes: config.bodyLimitBytes,
  });
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { app, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}` };
}
