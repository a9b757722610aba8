import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StringEnum, errorResponses } from '../schemas.js';

const Model = Type.Object({
  name: Type.String(),
  provider: StringEnum(['openai', 'openai-compatible', 'anthropic', 'local'], {
    description: 'local: the built-in offline model that answers by quoting the retrieved passages',
  }),
});

export type ModelBody = Static<typeof Model>;

export interface ModelRoutesOptions {
  /** The model names an agent may use, each with the kind of provider serving it. */
  catalogue: readonly { name: string; provider: 'openai' | 'openai-compatible' | 'anthropic' | 'local' }[];
}

/** What `modelName` may be: the built-in names and the configured ones (for the agent form). */
export const modelRoutes: FastifyPluginAsyncTypebox<ModelRoutesOptions> = async (app, { catalogue }) => {
  app.get(
    '/models',
    {
      schema: {
        tags: ['agents'],
        summary: 'The model names an agent may use, with the kind of provider that serves each',
        response: {
          200: Type.Array(Model),
          ...errorResponses(),
        },
      },
    },
    async () => [...catalogue],
  );
};
