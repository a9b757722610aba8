import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SavedReplyService } from '../../domain/saved-replies.js';
import type { SavedReplyRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import { NewSavedReply, SavedReply, SavedReplyChanges } from '../../contract/saved-replies.js';

const savedReplyView = ({ workspaceId: _workspace, ...reply }: SavedReplyRecord) => reply;

const WHO =
  'Any member of the workspace (owner, admin or member), in person or with a key one of them made: saved replies are ' +
  'the team’s shared snippets.';

/** Saved replies: canned answers members insert in a reply by typing `/` and the shortcut. */
export const savedReplyRoutes: FastifyPluginAsyncTypebox<{ savedReplies: SavedReplyService }> = async (app, { savedReplies }) => {
  const tags = ['saved replies'];

  app.get(
    '/saved-replies',
    {
      schema: {
        tags,
        summary: 'List the workspace’s saved replies, by shortcut',
        description: WHO,
        response: { 200: Type.Array(SavedReply), ...errorResponses() },
      },
    },
    async (request) => (await savedReplies.list(workspaceOf(request))).map(savedReplyView),
  );

  app.post(
    '/saved-replies',
    {
      schema: {
        tags,
        summary: 'Save a reply under a shortcut',
        description: `${WHO} A shortcut taken in the workspace is 409 CONFLICT.`,
        body: NewSavedReply,
        response: { 200: SavedReply, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => savedReplyView(await savedReplies.create(workspaceOf(request), request.body)),
  );

  app.patch(
    '/saved-replies/:id',
    {
      schema: {
        tags,
        summary: 'Change a saved reply’s shortcut, title or text',
        description: `${WHO} A shortcut taken in the workspace is 409 CONFLICT.`,
        params: IdParams,
        body: SavedReplyChanges,
        response: { 200: SavedReply, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => savedReplyView(await savedReplies.update(workspaceOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/saved-replies/:id',
    {
      schema: { tags, summary: 'Delete a saved reply', description: WHO, params: IdParams, response: { 200: SavedReply, ...errorResponses() } },
    },
    async (request) => savedReplyView(await savedReplies.delete(workspaceOf(request), request.params.id)),
  );
};
