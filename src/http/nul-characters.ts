import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';
import { fieldCarryingParts } from './plugins/errors.js';

/**
 * Where `value` holds U+0000 (in a string, or in a key: then the object holding it is named), or
 * undefined. Bodies are at most 64 levels deep by then (json-depth.ts), so recursion is safe.
 */
function nulAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\0')) return path;
    const found = nulAt(inner, `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * U+0000 is refused everywhere in a request, after validation has had its say: PostgreSQL cannot store
 * it in text (the query would fail as an internal error), and no name, id or question needs it. Refusing
 * it at the edge keeps both stores answering the same way. A callback hook: it runs on every request.
 */
export function refuseNulCharacters(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  for (const [name, part] of fieldCarryingParts(request)) {
    const field = nulAt(part, name);
    if (field !== undefined) return done(invalid(`${field} contains a NUL character (U+0000)`, [{ field, message: 'must not contain U+0000' }]));
  }
  done();
}
