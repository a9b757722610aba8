import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './json-schema.js';

/** A workspace's members as `/members` answers them. */

export const Role = StringEnum(['owner', 'admin', 'member'], {
  description:
    'owners and admins manage members, webhooks and settings, and receive notification e-mails; only owners grant, take or remove the owner role',
});

export const Member = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  status: StringEnum(['active', 'invited'], { description: 'invited until the person accepts the invitation' }),
  createdAt: Timestamp('When the member was invited'),
});

export const Invited = Type.Composite([
  Member,
  Type.Object({
    invitationUrl: Type.String({ description: 'The single-use link that lets the person in (shown only now)' }),
    invitationExpiresAt: Timestamp('When the link stops working'),
    emailed: Type.Boolean({ description: 'The link was also sent by e-mail (PARLEY_SMTP_URL is set and the server took it)' }),
  }),
]);

export const PasswordReset = Type.Composite([
  Member,
  Type.Object({
    passwordResetUrl: Type.String({ description: 'The single-use link that sets a new password (shown only now; hand it to the person)' }),
    passwordResetExpiresAt: Timestamp('When the link stops working'),
  }),
]);

/** `POST /members`: whom to invite. */
export const NewMember = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  role: Type.Optional(Role),
});

/** `PATCH /members/{id}`. */
export const RoleChange = Type.Object({ role: Role });

export type MemberBody = Static<typeof Member>;
export type PasswordResetBody = Static<typeof PasswordReset>;
export type InvitedBody = Static<typeof Invited>;
export type NewMemberBody = Static<typeof NewMember>;
export type RoleChangeBody = Static<typeof RoleChange>;
