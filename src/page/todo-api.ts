import type { ListPaths } from '../model/resources.ts';
import { readLiveEvent, type SnapshotEvent } from '../model/events.ts';
import type { Todo } from '../model/resources.ts';
import { ApiError, discardBody, send, versionOf } from './api-request.ts';

/** An item as the service answered it, with its version (its ETag, unquoted). */
export interface VersionedTodo {
  readonly todo: Todo;
  readonly version: string;
}

/**
 * The page's HTTP client of one list's items. What the list becomes arrives through the event
 * stream, so every tab renders the same thing; the answers matter only to the edits sent later.
 */
export class TodoApi {
  constructor(private readonly paths: ListPaths) {}

  /**
   * The list as a snapshot event, for a tab that must show it before the next change. Its id
   * is the list's ETag, which the contract makes the id of the last event, so the events that
   * follow it can be told from those it already holds.
   */
  async list(): Promise<SnapshotEvent> {
    const response = await send('GET', this.paths.todos);
    const snapshot = readLiveEvent('snapshot', versionOf(response), await response.text());
    if (snapshot?.type !== 'snapshot') throw new ApiError('The list could not be read.', true);
    return snapshot;
  }

  async read(id: string): Promise<VersionedTodo> {
    return readTodo(await send('GET', this.#itemPath(id)));
  }

  /** `key`, sent as `Idempotency-Key`, makes a retry of the same create create nothing more. */
  async create(title: string, key?: string): Promise<VersionedTodo> {
    const headers: Record<string, string> =
      key === undefined ? {} : { 'idempotency-key': `"${key}"` };
    return readTodo(await send('POST', this.paths.todos, { title }, headers));
  }

  /** With `ifMatch`, a version: the service refuses (412) if the item has changed since. */
  async update(todo: Todo, ifMatch?: string): Promise<VersionedTodo> {
    const body = { title: todo.title, completed: todo.completed };
    return readTodo(await send('PUT', this.#itemPath(todo.id), body, conditionOf(ifMatch)));
  }

  async remove(id: string, ifMatch?: string): Promise<void> {
    await discardBody(await send('DELETE', this.#itemPath(id), undefined, conditionOf(ifMatch)));
  }

  #itemPath(id: string): string {
    return `${this.paths.todos}/${encodeURIComponent(id)}`;
  }
}

function conditionOf(version: string | undefined): Record<string, string> {
  return version === undefined ? {} : { 'if-match': `"${version}"` };
}

async function readTodo(response: Response): Promise<VersionedTodo> {
  // An item answered is checked as one in an event is.
  const event = readLiveEvent('updated', '', await response.text());
  if (event?.type !== 'updated') throw new ApiError('The item could not be read.', true);
  return { todo: event.todo, version: versionOf(response) };
}
