import type { ListPaths } from '../lists/list-paths.ts';
import { readLiveEvent, type SnapshotEvent } from '../live/events.ts';
import type { Todo } from '../todos/todo.ts';
import { ApiError, drain, send, versionOf } from './api-request.ts';

/**
 * The page's HTTP client of one list's items. Changes are only sent: what the list becomes
 * arrives through the event stream, so every tab renders the same thing.
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

  async create(title: string): Promise<void> {
    await drain(await send('POST', this.paths.todos, { title }));
  }

  async update(todo: Todo): Promise<void> {
    const body = { title: todo.title, completed: todo.completed };
    await drain(await send('PUT', this.#itemPath(todo.id), body));
  }

  async remove(id: string): Promise<void> {
    await drain(await send('DELETE', this.#itemPath(id)));
  }

  #itemPath(id: string): string {
    return `${this.paths.todos}/${encodeURIComponent(id)}`;
  }
}
