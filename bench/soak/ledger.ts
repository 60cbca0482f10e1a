import type { Failures } from './failures.ts';

export type ChangeType = 'created' | 'updated' | 'deleted';

interface Entry {
  readonly type: ChangeType;
  readonly todoId: string;
  /** The event's data as the first client got it; undefined until a client gets it. */
  data: string | undefined;
}

/** Far more changes than a client may lag behind before the service drops it (1 MiB). */
const WINDOW = 50_000;

/**
 * What each change of the list was, by sequence number, from two sides: the API answers
 * (a created or updated item's ETag names its change) and the event streams (the first
 * client to get an event records it, every later client must get the same bytes). Any
 * disagreement is a wrong event. A change the API made that no client got is a missed one.
 */
export class Ledger {
  readonly #entries = new Map<number, Entry>();
  readonly #failures: Failures;
  #highest = 0;
  #unseen = 0;

  constructor(failures: Failures) {
    this.#failures = failures;
  }

  fromApi(seq: number, type: ChangeType, todoId: string): void {
    const entry = this.#entries.get(seq);
    if (entry === undefined) return this.#add(seq, { type, todoId, data: undefined });
    if (entry.type !== type || entry.todoId !== todoId) {
      this.#wrong(seq, `the API says ${type} ${todoId}, the stream ${entry.type} ${entry.todoId}`);
    }
  }

  /** The id of the item event `seq` is about, or undefined if the event is wrong. */
  fromEvent(seq: number, type: string, data: string): string | undefined {
    const entry = this.#entries.get(seq);
    if (entry?.data !== undefined) {
      if (entry.type === type && entry.data === data) return entry.todoId;
      this.#wrong(seq, `a client got ${type} ${data}, another ${entry.type} ${entry.data}`);
      return undefined;
    }
    const todoId = todoIdOf(type, data);
    if (todoId === undefined) {
      this.#wrong(seq, `not a change event: ${type} ${data.slice(0, 200)}`);
      return undefined;
    }
    if (entry === undefined) {
      this.#add(seq, { type: type as ChangeType, todoId, data });
      return todoId;
    }
    if (entry.type !== type || entry.todoId !== todoId) {
      this.#wrong(seq, `the API says ${entry.type} ${entry.todoId}, the stream ${type} ${data}`);
      return undefined;
    }
    entry.data = data;
    return todoId;
  }

  /**
   * How many of the API's changes no client got, since the last call; call it once the
   * clients have caught up with the last change.
   */
  settle(): number {
    for (const entry of this.#entries.values()) if (entry.data === undefined) this.#unseen += 1;
    this.#entries.clear();
    const unseen = this.#unseen;
    this.#unseen = 0;
    return unseen;
  }

  #add(seq: number, entry: Entry): void {
    this.#entries.set(seq, entry);
    this.#highest = Math.max(this.#highest, seq);
    // Entries arrive almost in order, so the oldest sit at the front of the map.
    for (const [old, { data }] of this.#entries) {
      if (old > this.#highest - WINDOW) break;
      if (data === undefined) this.#unseen += 1;
      this.#entries.delete(old);
    }
  }

  #wrong(seq: number, detail: string): void {
    this.#failures.add('wrong event', `seq ${seq}: ${detail}`);
  }
}

function todoIdOf(type: string, data: string): string | undefined {
  if (type !== 'created' && type !== 'updated' && type !== 'deleted') return undefined;
  try {
    const todo = JSON.parse(data) as { id?: unknown; title?: unknown; completed?: unknown };
    const keys = Object.keys(todo).sort().join();
    if (keys !== 'completed,id,title' || typeof todo.id !== 'string') return undefined;
    return todo.id;
  } catch {
    return undefined;
  }
}
