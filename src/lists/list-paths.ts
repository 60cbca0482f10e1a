/**
 * Where a list's routes are, for the server, which serves them, and the page, which calls
 * them. This module runs in the browser too.
 */
export interface ListPaths {
  /** The items: `GET`, `POST`, and `/{todoId}` below it. */
  readonly todos: string;
  /** The event stream. */
  readonly sse: string;
}

/** The list everyone shares, which cannot be renamed or deleted. */
export const DEFAULT_LIST_PATHS: ListPaths = { todos: '/api/todos', sse: '/api/sse' };

/** Where lists are created. */
export const LISTS_PATH = '/api/lists';

/** The list resource itself: `GET`, `PUT` (rename), `DELETE`. */
export function listPathOf(listId: string): string {
  return `${LISTS_PATH}/${listId}`;
}

export function namedListPaths(listId: string): ListPaths {
  const base = listPathOf(listId);
  return { todos: `${base}/todos`, sse: `${base}/sse` };
}

/** The page that shows a named list, as a route pattern; `/` shows the default one. */
export const LIST_PAGE = '/lists/:list';

/** The page that shows a named list; `/` shows the default one. */
export function listPageOf(listId: string): string {
  return `/lists/${listId}`;
}
