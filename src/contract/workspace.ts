import { Type, type Static } from '@sinclair/typebox';
import { NOTIFYING_EVENTS } from './events.js';
import { KeyedObject, Nullable } from './json-schema.js';

/** `/workspace/settings`: who is e-mailed of which conversation event, and the workspace's rate limits. */

export const Audience = Type.Object(
  {
    admins: Type.Boolean({ description: 'E-mail the workspace’s owners and admins (see /members)' }),
    customer: Type.Boolean({ description: 'E-mail the conversation’s contact, when it has an address' }),
  },
  { additionalProperties: false },
);

const perMinute = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000, description });

const rateLimitFields = {
  keyPerMinute: perMinute('Requests a minute per API key'),
  ipPerMinute: perMinute('Requests a minute per client IP on public routes (agents and datastores used without a key)'),
  visitorPerMinute: perMinute('Requests a minute per visitor (visitor token) on public routes'),
};

export const RateLimits = Type.Object(rateLimitFields);

export const WorkspaceSettings = Type.Object({
  name: Type.String({ description: 'The workspace’s name' }),
  notifications: KeyedObject(NOTIFYING_EVENTS, Audience, { additionalProperties: false }),
  emailEnabled: Type.Boolean({ description: 'Read-only: an SMTP server is configured (PARLEY_SMTP_URL), so e-mail can go out' }),
  rateLimits: RateLimits,
});

/** `PATCH /workspace/settings`: what is left out keeps its value. */
export const WorkspaceChanges = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    notifications: Type.Optional(KeyedObject(NOTIFYING_EVENTS, Type.Optional(Type.Partial(Audience)), { additionalProperties: false })),
    rateLimits: Type.Optional(
      Type.Object(
        {
          keyPerMinute: Type.Optional(Nullable(rateLimitFields.keyPerMinute)),
          ipPerMinute: Type.Optional(Nullable(rateLimitFields.ipPerMinute)),
          visitorPerMinute: Type.Optional(Nullable(rateLimitFields.visitorPerMinute)),
        },
        { additionalProperties: false, description: 'Limits to change; null returns one to the server default' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type AudienceBody = Static<typeof Audience>;
export type RateLimitsBody = Static<typeof RateLimits>;
export type WorkspaceSettingsBody = Static<typeof WorkspaceSettings>;
export type WorkspaceChangesBody = Static<typeof WorkspaceChanges>;
