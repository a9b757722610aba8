import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from './json-schema.js';

/** API keys as `GET /keys` and `POST /keys` answer them. */

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String({ description: 'The first characters of the key, to tell keys apart' }),
  createdAt: Timestamp('When the key was created'),
  lastUsedAt: Nullable(Timestamp('Last use, to the minute')),
  createdBy: Nullable(Type.String({ description: 'The user who made the key (it has their rights); null for the operator’s keys' })),
});

export const IssuedKey = Type.Composite([
  ApiKey,
  Type.Object({ key: Type.String({ description: 'The whole key. Shown only in this answer: store it now.' }) }),
]);

/** `POST /keys`. */
export const NewKey = Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) });

export type ApiKeyBody = Static<typeof ApiKey>;
export type IssuedKeyBody = Static<typeof IssuedKey>;
export type NewKeyBody = Static<typeof NewKey>;
