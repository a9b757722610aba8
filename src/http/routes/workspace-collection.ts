import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';

/** What a workspace's small shared collection (labels, saved replies) does; the records carry their workspace. */
export interface CollectionService<New, Changes, Item extends { workspaceId: string }> {
  list(workspaceId: string): Promise<Item[]>;
  create(workspaceId: string, input: New): Promise<Item>;
  update(workspaceId: string, id: string, changes: Changes): Promise<Item>;
  delete(workspaceId: string, id: string): Promise<Item>;
}

export interface CollectionRoutes<New extends TSchema, Changes extends TSchema, Item extends { workspaceId: string }> {
  /** `/labels`: the items are at `{path}/:id`. */
  path: string;
  tags: string[];
  /** Who may call every route, said at the start of each description. */
  who: string;
  /** What a name or shortcut already taken answers, said on create and update. */
  taken: string;
  /**
   * `item` is any schema: the type provider cannot relate a generic one to the record the service returns;
   * the response schema still shapes (and the tests check) what goes out.
   */
  schemas: { item: TSchema; create: New; update: Changes };
  summaries: { list: string; create: string; update: string; delete: string };
  service: CollectionService<Static<New>, Static<Changes>, Item>;
}

/** The API's view of a record: everything but the workspace, which the caller's credential already names. */
const withoutWorkspace = <Item extends { workspaceId: string }>({ workspaceId: _workspace, ...rest }: Item): Omit<Item, 'workspaceId'> => rest;

/** List, create, update and delete of a workspace's collection, for any member (the service keeps the rules). */
export function collectionRoutes<New extends TSchema, Changes extends TSchema, Item extends { workspaceId: string }>(
  spec: CollectionRoutes<New, Changes, Item>,
): FastifyPluginAsyncTypebox {
  const { path, tags, who, taken, schemas, summaries, service } = spec;
  const { item } = schemas;
  return async (app) => {
    app.get(
      path,
      { schema: { tags, summary: summaries.list, description: who, response: { 200: Type.Array(item), ...errorResponses() } } },
      async (request) => (await service.list(workspaceOf(request))).map(withoutWorkspace),
    );

    app.post(
      path,
      {
        schema: {
          tags,
          summary: summaries.create,
          description: `${who} ${taken}`,
          body: schemas.create,
          response: { 200: item, ...errorResponses(409, 413, 415) },
        },
      },
      async (request) => withoutWorkspace(await service.create(workspaceOf(request), request.body)),
    );

    app.patch(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: summaries.update,
          description: `${who} ${taken}`,
          params: IdParams,
          body: schemas.update,
          response: { 200: item, ...errorResponses(409, 413, 415) },
        },
      },
      async (request) => withoutWorkspace(await service.update(workspaceOf(request), request.params.id, request.body)),
    );

    app.delete(
      `${path}/:id`,
      { schema: { tags, summary: summaries.delete, description: who, params: IdParams, response: { 200: item, ...errorResponses() } } },
      async (request) => withoutWorkspace(await service.delete(workspaceOf(request), request.params.id)),
    );
  };
}
