import { readLiveEvent, type SnapshotEvent } from '../model/events.ts';
import { DEFAULT_LIST_PATHS, LISTS_PATH, listPathOf, namedListPaths } from '../model/resources.ts';
import type { ListPaths, ListResource, Todo } from '../model/resources.ts';
import type { Edit } from './model.ts';

/** `/lists/{id}`, as `listPageOf` writes it. */
const NAMED_LIST_PAGE = /^\/lists\/([^/]+)\/?$/;

/** The list the page at `pathname` shows: `/lists/{id}` a named one, any other the default. */
export function listOfPath(pathname: string): { id: string | undefined; paths: ListPaths } {
  const id = NAMED_LIST_PAGE.exec(pathname)?.[1];
  return { id, paths: id === undefined ? DEFAULT_LIST_PATHS : namedListPaths(id) };
}

/** A request the service refused (`status`) or could not answer; the message is fit to show. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  /** The service was not reached or failed (5xx): trying again later may work. */
  get transient(): boolean {
    return this.status === undefined || this.status >= 500;
  }
}

/** Whether the service answered `error` with 404: on a list's own route, the list is gone. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** An item as the service answered it, with its version (its ETag, unquoted). */
type VersionedTodo = { readonly todo: Todo; readonly version: string };

/** The HTTP client of one list's items; what the list becomes, the event stream tells. */
export class TodoApi {
  constructor(private readonly paths: ListPaths) {}

  /** The list as a snapshot event, whose id is the ETag: the contract makes it the last event's. */
  async list(): Promise<SnapshotEvent> {
    const response = await send('GET', this.paths.todos);
    const snapshot = readLiveEvent('snapshot', versionOf(response), await response.text());
    if (snapshot?.type !== 'snapshot') throw new ApiError('The list could not be read.');
    return snapshot;
  }

  async read(id: string): Promise<VersionedTodo> {
    return readTodo(await send('GET', this.#itemPath(id)));
  }

  /**
   * A create carries its key as `Idempotency-Key`, so that a retry creates nothing more; with
   * `ifMatch`, a version, the service refuses (412) a change or a delete if the item has changed.
   */
  async sendEdit(edit: Edit, ifMatch?: string): Promise<VersionedTodo | void> {
    if (edit.kind === 'create') {
      const key = { 'idempotency-key': `"${edit.key}"` };
      return readTodo(await send('POST', this.paths.todos, { title: edit.title }, key));
    }
    const path = this.#itemPath(edit.id);
    const condition = ifMatch === undefined ? undefined : { 'if-match': `"${ifMatch}"` };
    if (edit.kind === 'delete') {
      return discardBody(await send('DELETE', path, undefined, condition));
    }
    const body = { title: edit.title, completed: edit.completed };
    return readTodo(await send('PUT', path, body, condition));
  }

  #itemPath(id: string): string {
    return `${this.paths.todos}/${encodeURIComponent(id)}`;
  }
}

/** A named list, with the version at which its title was set (its ETag). */
type VersionedList = ListResource & { readonly version: string };

export class ListApi {
  async create(): Promise<VersionedList> {
    return readList(await send('POST', LISTS_PATH));
  }

  async read(id: string): Promise<VersionedList> {
    return readList(await send('GET', listPathOf(id)));
  }

  /** Sets the title, whatever it was: a rename, as an edit of an item, is the last word. */
  async rename(id: string, title: string): Promise<VersionedList> {
    return readList(await send('PUT', listPathOf(id), { title }));
  }

  async remove(id: string): Promise<void> {
    await discardBody(await send('DELETE', listPathOf(id)));
  }
}

/** Sends one request to the API; an answer that is not 2xx becomes an `ApiError`. */
async function send(
  method: string,
  path: string,
  body?: object,
  headers: Readonly<Record<string, string>> = {},
): Promise<Response> {
  const json = body && { 'content-type': 'application/json' };
  const response = await fetch(path, {
    method,
    headers: { ...json, ...headers },
    body: body && JSON.stringify(body),
  }).catch(() => {
    throw new ApiError('The service could not be reached. Check the connection and try again.');
  });
  if (response.ok) return response;
  const problem = (await response.json().catch(() => null)) as { detail?: unknown } | null;
  const detail = typeof problem?.detail === 'string' ? problem.detail : '';
  const fallback = `The service answered ${response.status} ${response.statusText}.`.trim();
  throw new ApiError(detail || fallback, response.status);
}

/** Reads an answer not needed, so that the next navigation does not cut the request off. */
async function discardBody(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => {});
}

/** The version an ETag names: the id of an event in the list's sequence. */
function versionOf(response: Response): string {
  return (response.headers.get('etag') ?? '').replace(/^(W\/)?"(.*)"$/, '$2');
}

async function readTodo(response: Response): Promise<VersionedTodo> {
  // An item answered is checked as one in an event is; so is a list.
  const event = readLiveEvent('updated', '', await response.text());
  if (event?.type !== 'updated') throw new ApiError('The item could not be read.');
  return { todo: event.todo, version: versionOf(response) };
}

async function readList(response: Response): Promise<VersionedList> {
  const event = readLiveEvent('list-renamed', '', await response.text().catch(() => ''));
  const list = event?.type === 'list-renamed' ? event.list : undefined;
  const { viewId } = (list ?? {}) as { viewId?: unknown };
  if (list === undefined || typeof viewId !== 'string') {
    throw new ApiError('The list could not be read.');
  }
  return { id: list.id, title: list.title, viewId, version: versionOf(response) };
}
