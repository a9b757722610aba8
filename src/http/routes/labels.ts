import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LabelService } from '../../domain/labels.js';
import type { LabelRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import { Label, LabelChanges, NewLabel } from '../../contract/labels.js';

const labelView = ({ workspaceId: _workspace, ...label }: LabelRecord) => label;

const WHO = 'Any member of the workspace (owner, admin or member), in person or with a key one of them made.';

/** The workspace's labels; putting them on conversations is in the conversation routes. */
export const labelRoutes: FastifyPluginAsyncTypebox<{ labels: LabelService }> = async (app, { labels }) => {
  const tags = ['labels'];

  app.get(
    '/labels',
    {
      schema: { tags, summary: 'List the workspace’s labels, by name', description: WHO, response: { 200: Type.Array(Label), ...errorResponses() } },
    },
    async (request) => (await labels.list(workspaceOf(request))).map(labelView),
  );

  app.post(
    '/labels',
    {
      schema: {
        tags,
        summary: 'Make a label',
        description: `${WHO} A name taken in the workspace is 409 CONFLICT; without a colour it is grey.`,
        body: NewLabel,
        response: { 200: Label, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => labelView(await labels.create(workspaceOf(request), request.body)),
  );

  app.patch(
    '/labels/:id',
    {
      schema: {
        tags,
        summary: 'Rename or recolour a label',
        description: `${WHO} A name taken in the workspace is 409 CONFLICT.`,
        params: IdParams,
        body: LabelChanges,
        response: { 200: Label, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => labelView(await labels.update(workspaceOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/labels/:id',
    {
      schema: {
        tags,
        summary: 'Delete a label; it leaves every conversation it was on',
        description: WHO,
        params: IdParams,
        response: { 200: Label, ...errorResponses() },
      },
    },
    async (request) => labelView(await labels.delete(workspaceOf(request), request.params.id)),
  );
};
