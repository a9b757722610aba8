import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../api-prefix.js';

const DESCRIPTION = `Parley hosts AI agents, their knowledge stores (datastores), the documents in them (datasources) and
the conversations held with them. Every request carries \`Authorization: Bearer <API key>\`; the key decides the
workspace. Errors are JSON: \`{"error": CODE, "message", "details"?, "requestId"}\`. Every path also answers
under \`/api\` (\`/api/agents\` is \`/agents\`), as the hosted service's clients call it.`;

/** The OpenAPI 3.1 document, generated from the route schemas, at /openapi.json, and its reader at /docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Parley API', version: '1.0.0', description: DESCRIPTION },
      // Relative to where the document is read from: the same operations at the root and under /api.
      servers: [
        { url: '/', description: 'This Parley' },
        { url: API_PREFIX, description: 'The same paths under /api, where clients of the hosted service call them' },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'A workspace API key' } },
      },
      security: [{ bearerAuth: [] }],
    },
    refResolver: {
      // Shared schemas keep their own names (e.g. ErrorBody) under components.schemas.
      buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json.$id === 'string' ? json.$id : `def-${index}`),
    },
  });
  // No validator badge: it would send the spec's URL to validator.swagger.io, which the docs' CSP blocks anyway.
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { validatorUrl: null } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
