import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from './json-schema.js';

/** The signed-in person, their memberships, sessions, access tokens and invitations, as `/auth` answers them. */

export const Role = StringEnum(['owner', 'admin', 'member']);

export const User = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String() });

export const UserAnswer = Type.Object({ user: User });

export const MeAnswer = Type.Object({
  user: User,
  memberships: Type.Array(
    Type.Object({
      workspaceId: Type.String(),
      workspaceName: Type.String(),
      role: Role,
      memberId: Type.String({ description: 'The person as a member of that workspace (assignee and sender ids)' }),
    }),
  ),
});

/** The hosted service's `/me` answered an API key with its organization; Zapier names the connection by `name`. */
export const KeyWorkspace = Type.Object(
  {
    id: Type.String({ description: 'The workspace' }),
    name: Type.String({ description: 'The workspace’s name' }),
    createdAt: Timestamp('When the workspace was created'),
    role: Role,
  },
  { description: 'With an API key: its workspace' },
);

export const Session = Type.Object({
  id: Type.String(),
  createdAt: Timestamp('When the person signed in'),
  lastSeenAt: Timestamp('When the session was last used (to the minute)'),
  userAgent: Type.String(),
  current: Type.Boolean({ description: 'The session this request came with' }),
});

export const SetupStatus = Type.Object({ setupRequired: Type.Boolean(), signUpOpen: Type.Boolean() });

export const AccessToken = Type.Object({
  accessToken: Type.String(),
  expiresAt: Timestamp('When it stops working'),
  workspaceId: Type.String(),
  role: Role,
});

export const Invitation = Type.Object({
  email: Type.String({ description: 'The address invited' }),
  workspaceName: Type.String(),
  role: Role,
  signedIn: Type.Boolean({ description: 'This request comes from the invited person’s own session: accepting needs no password' }),
});

export const ResetRequested = Type.Object({
  delivery: StringEnum(['email', 'ask-an-owner'], {
    description:
      'email: when the address has an account, a link is on its way; ask-an-owner: this server sends no e-mail, an owner makes the link from the members page. The same for every address.',
  }),
});

/** Checked by the domain, which names the field that is too short; the schema only bounds the length. */
export const MIN_PASSWORD_LENGTH = 10;

const Password = Type.String({ minLength: 1, maxLength: 1000, description: `At least ${MIN_PASSWORD_LENGTH} characters` });
const Email = Type.String({ format: 'email', maxLength: 320 });
const Name = Type.String({ maxLength: 200 });

/** A one-time link's token: setup, invitation, password reset. */
export const Token = Type.String({ minLength: 1, maxLength: 200 });

/** `POST /auth/setup`: the first owner. */
export const Setup = Type.Object({ token: Token, email: Email, name: Name, password: Password });

/** `POST /auth/sign-up`. */
export const SignUp = Type.Object({ email: Email, name: Name, password: Password, workspaceName: Type.String({ maxLength: 200 }) });

/** `POST /auth/sign-in`. */
export const SignIn = Type.Object({ email: Type.String({ maxLength: 320 }), password: Password });

/** `POST /auth/token`. */
export const TokenRequest = Type.Object({ workspaceId: Type.Optional(Type.String({ maxLength: 200 })) });

/** `PATCH /me`. */
export const AccountChanges = Type.Object({ name: Type.Optional(Name), password: Type.Optional(Password), currentPassword: Type.Optional(Password) });

/** `POST /auth/invitations/accept`. */
export const InvitationAcceptance = Type.Object({ token: Token, name: Type.Optional(Name), password: Type.Optional(Password) });

/** `POST /auth/password-reset/request`. */
export const ResetRequest = Type.Object({ email: Email });

/** `POST /auth/password-reset`. */
export const NewPassword = Type.Object({ token: Token, password: Password });

export type ResetRequestedBody = Static<typeof ResetRequested>;
export type UserAnswerBody = Static<typeof UserAnswer>;
export type MeAnswerBody = Static<typeof MeAnswer>;
export type SessionBody = Static<typeof Session>;
export type SetupStatusBody = Static<typeof SetupStatus>;
export type AccessTokenBody = Static<typeof AccessToken>;
export type InvitationBody = Static<typeof Invitation>;
export type SetupBody = Static<typeof Setup>;
export type SignUpBody = Static<typeof SignUp>;
export type SignInBody = Static<typeof SignIn>;
export type AccountChangesBody = Static<typeof AccountChanges>;
export type InvitationAcceptanceBody = Static<typeof InvitationAcceptance>;
export type NewPasswordBody = Static<typeof NewPassword>;
