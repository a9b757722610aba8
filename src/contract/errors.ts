import { Type, type Static } from '@sinclair/typebox';

/** The body of every error answer; `details` names the request's bad fields, which forms show beside them. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Stable error code, e.g. INVALID_REQUEST, UNAUTHORIZED, NOT_FOUND' }),
    message: Type.String({ description: 'What went wrong, for people' }),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'One entry per bad field of the request',
      }),
    ),
    existing: Type.Optional(
      Type.Object(
        { id: Type.String(), name: Type.String(), type: Type.String() },
        { description: 'What the request conflicts with, to act on: the datasource already holding the content (DUPLICATE_DATASOURCE)' },
      ),
    ),
    requestId: Type.String({ description: 'Quote it when reporting a problem; also in the X-Request-Id header' }),
  },
  { $id: 'ErrorBody', description: 'Error' },
);

export type ErrorBody = Static<typeof ErrorBody>;

/** One bad field: `body.name`, `querystring.limit`, `body.tools.0` for an item of a list. */
export type FieldProblem = NonNullable<ErrorBody['details']>[number];
