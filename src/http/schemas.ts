import type { Static, TSchema } from '@sinclair/typebox';
import { ErrorBody } from '../contract/errors.js';
import type { SearchFilters } from '../contract/shared-schemas.js';
import { IdSchema, SearchFiltersSchema, ref } from '../contract/shared-schemas.js';

// The schema helpers the API's shapes are written with live in the contract; routes take them from here too.
export { Nullable, StringEnum, Timestamp, Visibility } from '../contract/json-schema.js';
export { ClientId, Id, IdParams, SearchFilters } from '../contract/shared-schemas.js';

/** The datasources and custom ids `filters` keep, the singular keys joining the lists; absent lists stay absent. */
export function filterLists(filters: Static<typeof SearchFilters> | undefined): { datasourceIds?: string[]; customIds?: string[] } {
  const join = (list: string[] | undefined, one: string | undefined) => (one === undefined ? list : [...(list ?? []), one]);
  return { datasourceIds: join(filters?.datasource_ids, filters?.datasource_id), customIds: join(filters?.custom_ids, filters?.custom_id) };
}

const ERROR_DESCRIPTIONS = {
  400: 'Invalid request (INVALID_REQUEST); `details` lists each bad field',
  401: 'Missing or unknown API key (UNAUTHORIZED)',
  402: 'Usage limit reached (USAGE_LIMIT)',
  403: 'The resource belongs to another workspace (FORBIDDEN)',
  404: 'No such resource (NOT_FOUND)',
  409: 'Conflicts with the current state (CONFLICT), or the datastore already holds what is being added (DUPLICATE_DATASOURCE, naming it in `existing`)',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  415: 'Unsupported content type (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Too many requests (RATE_LIMIT), or the model provider is rate limiting us (MODEL_RATE_LIMITED); see Retry-After',
  500: 'Internal error (INTERNAL)',
  502: 'The model provider refused the request (MODEL_ERROR)',
  503: 'A dependency is unreachable (UNAVAILABLE), the model provider included (MODEL_UNAVAILABLE)',
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

export const errorResponse = (status: ErrorStatus) => ref(ErrorBody, { description: ERROR_DESCRIPTIONS[status] });

/** The error responses an authenticated route can give; `extra` adds route-specific ones. */
export function errorResponses(...extra: ErrorStatus[]) {
  const statuses: ErrorStatus[] = [400, 401, 403, 404, 500, ...extra];
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));
}

/** The schemas routes refer to by $id, for server.ts to register. */
export const SHARED_SCHEMAS: readonly TSchema[] = [IdSchema, SearchFiltersSchema, ErrorBody];
