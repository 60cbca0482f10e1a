import { DEFAULT_LIST_PATHS, namedListPaths, type ListPaths } from '../model/resources.ts';

/** The list a page shows, and where its routes are. */
export interface PageList {
  /** The named list's id; undefined for the default list. */
  readonly id: string | undefined;
  readonly paths: ListPaths;
}

/** `/lists/{id}`, as `listPageOf` writes it. */
const NAMED_LIST_PAGE = /^\/lists\/([^/]+)\/?$/;

/**
 * The list the page at `pathname` shows: `/lists/{id}` a named one, any other path the
 * default one. The id is used as the path carries it: the service says whether it names a list.
 */
export function listOfPath(pathname: string): PageList {
  const id = NAMED_LIST_PAGE.exec(pathname)?.[1];
  return id === undefined ? { id, paths: DEFAULT_LIST_PATHS } : { id, paths: namedListPaths(id) };
}
