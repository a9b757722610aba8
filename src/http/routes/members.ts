import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Invited as Invitation, MemberService } from '../../domain/members.js';
import type { MemberRecord } from '../../store/store.js';
import { workspaceCallerOf, workspaceOf } from '../plugins/auth.js';
import { IdParams, errorResponses } from '../schemas.js';
import { Invited, Member, NewMember, PasswordReset, RoleChange } from '../../contract/members.js';

const memberView = ({ workspaceId: _workspace, userId: _user, ...member }: MemberRecord) => member;

const invitedView = ({ member, invitation, emailed }: Invitation) => ({
  ...memberView(member),
  invitationUrl: invitation.url,
  invitationExpiresAt: invitation.expiresAt,
  emailed,
});

/** The workspace's people and their roles; only owners and admins (and API keys) manage them. */
export const memberRoutes: FastifyPluginAsyncTypebox<{ members: MemberService }> = async (app, { members }) => {
  const tags = ['members'];

  app.get(
    '/members',
    { schema: { tags, summary: 'The workspace’s members', response: { 200: Type.Array(Member), ...errorResponses() } } },
    async (request) => (await members.list(workspaceOf(request))).map(memberView),
  );

  app.post(
    '/members',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Invite a person by e-mail (409 when already a member); the invitation link is in the answer and e-mailed',
        body: NewMember,
        response: { 200: Invited, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => invitedView(await members.invite(workspaceCallerOf(request), request.body)),
  );

  app.post(
    '/members/:id/invitation',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'A new invitation link for a member who cannot sign in yet (an open invitation, or no password set)',
        params: IdParams,
        response: { 200: Invited, ...errorResponses(409) },
      },
    },
    async (request) => invitedView(await members.reinvite(workspaceCallerOf(request), request.params.id)),
  );

  app.post(
    '/members/:id/password-reset',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary:
          'Owners only: a password-reset link for a member who belongs to no other workspace (409 otherwise: they use “Forgot password?”); signs them out everywhere once used',
        params: IdParams,
        response: { 200: PasswordReset, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { member, link } = await members.passwordResetLink(workspaceCallerOf(request), request.params.id);
      return { ...memberView(member), passwordResetUrl: link.url, passwordResetExpiresAt: link.expiresAt };
    },
  );

  app.patch(
    '/members/:id',
    {
      config: { adminOnly: true },
      schema: {
        tags,
        summary: 'Change a member’s role (409 for the last owner)',
        params: IdParams,
        body: RoleChange,
        response: { 200: Member, ...errorResponses(409, 413, 415) },
      },
    },
    async (request) => memberView(await members.changeRole(workspaceCallerOf(request), request.params.id, request.body.role)),
  );

  app.delete(
    '/members/:id',
    {
      config: { adminOnly: true },
      schema: { tags, summary: 'Remove a member (409 for the last owner)', params: IdParams, response: { 200: Member, ...errorResponses(409) } },
    },
    async (request) => memberView(await members.remove(workspaceCallerOf(request), request.params.id)),
  );
};
