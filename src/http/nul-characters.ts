import type { FastifyRequest } from 'fastify';
import { invalid, type ParleyError } from '../errors.js';

/**
 * U+0000 is refused everywhere in a request: PostgreSQL cannot store it in text (the query would fail
 * as an internal error), and no name, id or question needs it. Refusing it at the edge keeps both stores
 * answering the same way.
 */
const nulRefused = (where: string): ParleyError =>
  invalid(`The ${where} contains a NUL character (U+0000)`, [{ field: where, message: 'must not contain U+0000' }]);

/** A JSON.parse reviver that throws on a NUL in any key or string of the body. */
export function refuseNulInJson(key: string, value: unknown): unknown {
  if (key.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw nulRefused('body');
  return value;
}

/** The request line can carry a NUL only percent-encoded. */
export async function refuseNulInUrl(request: FastifyRequest): Promise<void> {
  if (/%00/.test(request.url)) throw nulRefused(request.url.split('?')[0]!.includes('%00') ? 'path' : 'querystring');
}
