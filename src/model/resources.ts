// What the service serves and the page reads: an item, a list, and where each list's routes
// are. This module runs in the browser too.

/** A to-do item exactly as every answer and event shows it: these three keys, no other. */
export interface Todo {
  readonly id: string;
  readonly title: string;
  readonly completed: boolean;
}

export type TodoFields = Omit<Todo, 'id'>;

/** A named list's edit id and title, as the service keeps them. */
export interface ListInfo {
  readonly id: string;
  readonly title: string;
}

/** A list as `GET /api/lists/{id}` gives it; through a view id, `id` is that, never the edit id. */
export interface ListResource extends ListInfo {
  readonly viewId: string;
}

/** The list's JSON as answers and events show it, through its edit id or its view id. */
export function listJsonOf({ id, title }: ListInfo, viewId: string, viewOnly: boolean): string {
  return JSON.stringify({ id: viewOnly ? viewId : id, title, viewId });
}

/** Where a list's routes are: its items (`/{todoId}` below), and its event stream. */
export interface ListPaths {
  readonly todos: string;
  readonly sse: string;
}

/** The list everyone shares, which cannot be renamed or deleted. */
export const DEFAULT_LIST_PATHS: ListPaths = { todos: '/api/todos', sse: '/api/sse' };

export const LISTS_PATH = '/api/lists';

export function listPathOf(listId: string): string {
  return `${LISTS_PATH}/${listId}`;
}

export function namedListPaths(listId: string): ListPaths {
  const base = listPathOf(listId);
  return { todos: `${base}/todos`, sse: `${base}/sse` };
}

/** The page that shows a named list, as a route pattern; `/` shows the default one. */
export const LIST_PAGE = '/lists/:list';

export function listPageOf(listId: string): string {
  return `/lists/${listId}`;
}
