import { readLiveEvent, type SnapshotEvent } from '../live/events.ts';
import type { Todo } from '../todos/todo.ts';

const TODOS_PATH = '/api/todos';
const UNREACHABLE = 'The service could not be reached. Check the connection and try again.';

/**
 * A request the service refused or could not answer; `detail` is fit to show the user.
 * `transient` when the service was not reached or failed (5xx): trying again later may work,
 * unlike a refused title.
 */
export class ApiError extends Error {
  constructor(
    readonly detail: string,
    readonly transient: boolean,
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/**
 * The page's HTTP client of the to-do API. Changes are only sent: what the list becomes
 * arrives through the event stream, so every tab renders the same thing.
 */
export class TodoApi {
  /**
   * The list as a snapshot event, for a tab that must show it before the next change. Its id
   * is the list's ETag, which the contract makes the id of the last event, so the events that
   * follow it can be told from those it already holds.
   */
  async list(): Promise<SnapshotEvent> {
    const response = await this.#send('GET', TODOS_PATH);
    const id = (response.headers.get('etag') ?? '').replace(/^(W\/)?"(.*)"$/, '$2');
    const snapshot = readLiveEvent('snapshot', id, await response.text());
    if (snapshot?.type !== 'snapshot') throw new ApiError('The list could not be read.', true);
    return snapshot;
  }

  async create(title: string): Promise<void> {
    await this.#change('POST', TODOS_PATH, { title });
  }

  async update(todo: Todo): Promise<void> {
    await this.#change('PUT', `${TODOS_PATH}/${encodeURIComponent(todo.id)}`, {
      title: todo.title,
      completed: todo.completed,
    });
  }

  async remove(id: string): Promise<void> {
    await this.#change('DELETE', `${TODOS_PATH}/${encodeURIComponent(id)}`);
  }

  async #change(method: string, path: string, body?: object): Promise<void> {
    const response = await this.#send(method, path, body);
    // The answer is not needed (the event stream tells the change), but reading it lets the
    // request finish instead of being cut off by the next navigation.
    await response.arrayBuffer().catch(() => {});
  }

  async #send(method: string, path: string, body?: object): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        ...(body && {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      });
    } catch {
      throw new ApiError(UNREACHABLE, true);
    }
    if (!response.ok) throw new ApiError(await detailOf(response), response.status >= 500);
    return response;
  }
}

async function detailOf(response: Response): Promise<string> {
  const fallback = `The service answered ${response.status} ${response.statusText}.`.trim();
  try {
    const problem: unknown = await response.json();
    const detail = (problem as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' && detail !== '' ? detail : fallback;
  } catch {
    return fallback;
  }
}
