import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Store } from '../../store/store.js';
import { ParleyError } from '../../errors.js';
import { errorResponse } from '../schemas.js';

const Health = Type.Object({ status: Type.String() });

export type HealthBody = Static<typeof Health>;

/** Probes for load balancers and orchestrators; no key needed. */
export const healthRoutes: FastifyPluginAsyncTypebox<{ store: Store }> = async (app, { store }) => {
  const common = { tags: ['health'], security: [] };

  app.get(
    '/healthz',
    { schema: { ...common, summary: 'The process is up', response: { 200: Health } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        ...common,
        summary: 'The store is reachable',
        response: { 200: Health, 503: errorResponse(503) },
      },
    },
    async () => {
      try {
        await store.ping();
      } catch {
        throw new ParleyError('UNAVAILABLE', 'The store cannot be reached');
      }
      return { status: 'ready' };
    },
  );
};
