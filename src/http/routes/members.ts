import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MemberService } from '../../domain/members.js';
import type { MemberRecord } from '../../store/store.js';
import { workspaceOf } from '../plugins/auth.js';
import { IdParams, StringEnum, Timestamp, errorResponses } from '../schemas.js';

const Member = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: StringEnum(['owner', 'admin', 'member'], { description: 'owners and admins receive notification e-mails' }),
  createdAt: Timestamp('When the member was added'),
});

const memberView = ({ workspaceId: _workspace, ...member }: MemberRecord) => member;

/** The workspace's people; owners and admins receive its notification e-mails. */
export const memberRoutes: FastifyPluginAsyncTypebox<{ members: MemberService }> = async (app, { members }) => {
  app.get(
    '/members',
    { schema: { tags: ['members'], summary: 'The workspace’s members', response: { 200: Type.Array(Member), ...errorResponses() } } },
    async (request) => (await members.list(workspaceOf(request))).map(memberView),
  );

  app.post(
    '/members',
    {
      schema: {
        tags: ['members'],
        summary: 'Add a member (409 when the e-mail is already one)',
        body: Type.Object({
          email: Type.String({ format: 'email', maxLength: 320 }),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          role: Type.Optional(StringEnum(['owner', 'admin', 'member'])),
        }),
        response: { 200: Member, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => memberView(await members.add(workspaceOf(request), request.body)),
  );

  app.delete(
    '/members/:id',
    { schema: { tags: ['members'], summary: 'Remove a member', params: IdParams, response: { 200: Member, ...errorResponses() } } },
    async (request) => memberView(await members.remove(workspaceOf(request), request.params.id)),
  );
};
