import { invalid } from '../errors.js';

/** Messages a page before a cursor holds: the hosted service's page. */
export const HISTORY_PAGE_SIZE = 50;

/**
 * A conversation's messages as `GET /conversations/{id}` answers them, newest first like the hosted service
 * (its widget reverses what it gets; integrations read `messages[0]` as the newest): all of them, or with
 * `cursor` (a message id) the page of messages written before that one. An empty cursor is none (the hosted
 * widget asks its first page with `?cursor=`).
 */
export function newestFirst<T extends { id: string }>(oldestFirst: readonly T[], cursor: string | undefined): T[] {
  if (cursor === undefined || cursor === '') return [...oldestFirst].reverse();
  const at = oldestFirst.findIndex((message) => message.id === cursor);
  if (at < 0)
    throw invalid('The cursor is not a message of this conversation', [{ field: 'cursor', message: 'must be the id of one of its messages' }]);
  return oldestFirst.slice(Math.max(0, at - HISTORY_PAGE_SIZE), at).reverse();
}
