import type { Todo } from '../todos/todo.ts';

const TODOS_PATH = '/api/todos';
const UNREACHABLE = 'The service could not be reached. Check the connection and try again.';

/** A request the service refused or could not answer; `detail` is fit to show the user. */
export class StoreError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'StoreError';
  }
}

/**
 * The list on the server. It only sends changes: what the list becomes arrives through the
 * event stream, so every tab renders the same thing and none keeps a copy of its own.
 */
export class TodoStore {
  async create(title: string): Promise<void> {
    await this.#send('POST', TODOS_PATH, { title });
  }

  async update(todo: Todo): Promise<void> {
    await this.#send('PUT', `${TODOS_PATH}/${encodeURIComponent(todo.id)}`, {
      title: todo.title,
      completed: todo.completed,
    });
  }

  async remove(id: string): Promise<void> {
    await this.#send('DELETE', `${TODOS_PATH}/${encodeURIComponent(id)}`);
  }

  async #send(method: string, path: string, body?: object): Promise<void> {
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
      throw new StoreError(UNREACHABLE);
    }
    if (!response.ok) throw new StoreError(await detailOf(response));
    // The answer is not needed (the event stream tells the change), but reading it lets the
    // request finish instead of being cut off by the next navigation.
    await response.arrayBuffer().catch(() => {});
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
