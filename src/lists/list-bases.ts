import type { IRequest } from 'itty-router';
import { HttpProblem } from '../http/problem.ts';
import type { ListDirectory } from './list-directory.ts';
import { LISTS_PATH } from './list-paths.ts';
import type { TodoList } from './todo-list.ts';

/** The list a request names, or a 404 when it names none. */
export type ListOf = (request: IRequest) => TodoList;

/** Where a list's routes start, and how a request there finds its list. */
export interface ListBase {
  /** `/api` for the default list, `/api/lists/:list` for a named one. */
  readonly prefix: string;
  readonly listOf: ListOf;
}

/**
 * One answer for every id that names no list (never made, deleted, or not an id at all), so
 * that nothing in it tells which.
 */
export function noSuchList(): HttpProblem {
  return new HttpProblem(404, 'No list has this id.');
}

/**
 * The list, unless it was deleted while the request waited (for its body, say): a request
 * that began before the delete must not change it.
 */
export function stillThere(list: TodoList): TodoList {
  if (list.deleted) throw noSuchList();
  return list;
}

/** The named list whose id is the request's `:list`. */
export function namedListOf(lists: ListDirectory): ListOf {
  return (request) => lists.find(request.params.list!) ?? throwing(noSuchList());
}

/** The default list's routes and a named list's, which follow the same rules. */
export function listBases(lists: ListDirectory): readonly ListBase[] {
  return [
    { prefix: '/api', listOf: () => lists.defaultList ?? throwing(noSuchList()) },
    { prefix: `${LISTS_PATH}/:list`, listOf: namedListOf(lists) },
  ];
}

function throwing(problem: HttpProblem): never {
  throw problem;
}
