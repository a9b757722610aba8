import { setTimeout as delay } from 'node:timers/promises';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { ParleyError } from '../../errors.js';
import { errorResponse } from '../schemas.js';

const Health = Type.Object({ status: Type.String() });

export type HealthBody = Static<typeof Health>;

/** A store that has not answered by then is not ready: a probe gets its answer within this, even from a database that hangs. */
const READY_WITHIN_MS = 2_000;

/** Resolves once the store answered a query, rejects when it failed or did not answer in time. */
async function storeAnswers(store: Store): Promise<void> {
  const answered = new AbortController();
  try {
    await Promise.race([
      store.ping(),
      delay(READY_WITHIN_MS, undefined, { signal: answered.signal }).then(() => Promise.reject(new Error('no answer in time'))),
    ]);
  } finally {
    answered.abort();
  }
}

/** Probes for load balancers and orchestrators; no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  const common = { tags: ['health'], security: [] };

  app.get('/healthz', { schema: { ...common, summary: 'The process is up', response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    {
      schema: {
        ...common,
        summary: 'The store answers a query (within 2 s)',
        response: { 200: Health, 503: errorResponse(503) },
      },
    },
    async () => {
      try {
        await storeAnswers(store);
      } catch {
        throw new ParleyError('UNAVAILABLE', 'The store cannot be reached');
      }
      return { status: 'ready' };
    },
  );
};
