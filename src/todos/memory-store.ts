import { DEFAULT_APP_CONFIG } from '../config.ts';
import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import { ReplayBuffer } from '../live/replay-buffer.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { ChangeListener, KeptList, StoredList, StoredTodo, TodoStore } from './store.ts';
import type { Todo, TodoFields } from './todo.ts';

export interface MemoryTodoStoreOptions {
  /** The list's id (`''` for the default list) and its first title. */
  readonly info?: ListInfo;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges?: number;
  /** Where a listener's exception goes; it never undoes the change or stops other listeners. */
  readonly reportError?: (error: unknown) => void;
  /** The list to start from, as kept by durable storage; else an empty list of a new run. */
  readonly start?: KeptList;
  /**
   * Makes `change` durable before it is applied and announced; if it throws, the change is
   * neither, and the exception reaches the caller.
   */
  readonly persist?: (change: ChangeEvent, sequence: number) => void;
}

/**
 * A new run's id: it tells a list that started again from the one before, and one list's event
 * ids from another's. 64 random bits, so that among many lists no two runs meet.
 */
export function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The list in memory: a Map keeps insertion order, and replacing a value keeps its place.
 * A version names this run and a sequence number, so a version from another run (before a
 * restart) never passes for one of this run. With `persist`, every change is written through
 * to durable storage first, and `start` brings the list back.
 */
export class MemoryTodoStore implements TodoStore {
  readonly #runId: string;
  #sequence: number;
  #list: StoredList;
  readonly #items = new Map<string, StoredTodo>();
  readonly #listeners = new Set<ChangeListener>();
  readonly #replay: ReplayBuffer;
  readonly #reportError: (error: unknown) => void;
  readonly #persist: ((change: ChangeEvent, sequence: number) => void) | undefined;

  constructor(options: MemoryTodoStoreOptions = {}) {
    const { start } = options;
    this.#reportError = options.reportError ?? ((error) => console.error(error));
    this.#persist = options.persist;
    this.#runId = start?.run ?? newRunId();
    this.#sequence = start?.sequence ?? 0;
    this.#list = start?.list ?? {
      list: options.info ?? { id: '', title: '' },
      version: this.version,
    };
    for (const stored of start?.items ?? []) {
      this.#items.set(stored.todo.id, {
        todo: Object.freeze({ ...stored.todo }),
        version: stored.version,
      });
    }
    this.#replay = new ReplayBuffer(
      start?.history ?? { baseId: this.version, changes: [] },
      options.keepChanges ?? DEFAULT_APP_CONFIG.sse.replayEvents,
    );
  }

  get size(): number {
    return this.#items.size;
  }

  get version(): string {
    return eventIdOf({ run: this.#runId, sequence: this.#sequence });
  }

  get listInfo(): ListInfo {
    return this.#list.list;
  }

  get listVersion(): string {
    return this.#list.version;
  }

  list(): Todo[] {
    return Array.from(this.#items.values(), (stored) => stored.todo);
  }

  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }

  create(fields: TodoFields): StoredTodo {
    const id = crypto.randomUUID();
    return this.#commit('created', { id, title: fields.title, completed: fields.completed });
  }

  replace(id: string, fields: TodoFields): StoredTodo | undefined {
    if (!this.#items.has(id)) return undefined;
    return this.#commit('updated', { id, title: fields.title, completed: fields.completed });
  }

  delete(id: string): StoredTodo | undefined {
    const stored = this.#items.get(id);
    if (stored === undefined) return undefined;
    const change = this.#next({ type: 'deleted', todo: stored.todo });
    this.#items.delete(id);
    this.#announce(change);
    return stored;
  }

  rename(title: string): StoredList {
    const list = Object.freeze({ id: this.listInfo.id, title });
    const change = this.#next({ type: 'list-renamed', list });
    this.#list = { list, version: change.id };
    this.#announce(change);
    return this.#list;
  }

  subscribe(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changesSince(eventId: string): readonly ChangeEvent[] | undefined {
    return this.#replay.since(eventId);
  }

  #commit(type: 'created' | 'updated', todo: Todo): StoredTodo {
    const change = this.#next({ type, todo: Object.freeze(todo) });
    const stored: StoredTodo = { todo: change.todo, version: change.id };
    this.#items.set(todo.id, stored);
    this.#announce(change);
    return stored;
  }

  /** The change that comes next, made durable first when there is storage; nothing yet applied. */
  #next<Change extends DistributiveOmit<ChangeEvent, 'id'>>(
    change: Change,
  ): Change & { id: string } {
    const sequence = this.#sequence + 1;
    const next = { ...change, id: eventIdOf({ run: this.#runId, sequence }) };
    this.#persist?.(next as ChangeEvent, sequence);
    this.#sequence = sequence;
    return next;
  }

  #announce(change: ChangeEvent): void {
    this.#replay.record(change);
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
