import { DEFAULT_APP_CONFIG } from '../config.ts';
import { eventIdOf, type ChangeEvent, type TodoChange } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
import { Announcements } from './announcements.ts';
import { createdWith, type KeyedCreate } from './keyed-creates.ts';
import { PendingChanges } from './pending-changes.ts';
import { newRunId } from './run-id.ts';
import type { WriteDone } from './sql-writes.ts';
import type {
  ChangeListener,
  KeptList,
  LatestList,
  StoredList,
  StoredTodo,
  TodoStore,
} from './store.ts';
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
   * Makes `change` durable, then calls `done`, with the error if it could not: at once, or once
   * a later commit holds it. Changes are done in the order they were persisted; when one fails,
   * so does every change persisted after it and not yet done, in the same call.
   */
  readonly persist?: (change: ChangeEvent, sequence: number, done: WriteDone) => void;
}

/**
 * The list in memory: a Map keeps insertion order, and replacing a value keeps its place.
 * A version names this run and a sequence number, so a version from another run (before a
 * restart) never passes for one of this run. With `persist`, a change is made in the latest
 * list at once, and readers and subscribers see it once it is durable; `start` brings a kept
 * list back.
 */
export class MemoryTodoStore implements TodoStore {
  readonly #runId: string;
  /** The sequence, title and items as readers see them: every change in them is durable. */
  #sequence: number;
  #list: StoredList;
  readonly #items = new Map<string, StoredTodo>();
  readonly #announcements: Announcements;
  readonly #persist: MemoryTodoStoreOptions['persist'];
  readonly #pending = new PendingChanges(this);
  /** The last change made: once it is durable, so is every change before it. */
  #last: Promise<unknown> = Promise.resolve();

  constructor(options: MemoryTodoStoreOptions = {}) {
    const { start } = options;
    this.#persist = options.persist;
    this.#runId = start?.run ?? newRunId();
    this.#sequence = start?.sequence ?? 0;
    this.#list = start?.list ?? {
      list: options.info ?? { id: '', title: '' },
      version: this.version,
    };
    for (const { todo, version } of start?.items ?? []) {
      this.#items.set(todo.id, { todo: Object.freeze({ ...todo }), version });
    }
    this.#announcements = new Announcements(
      start?.history ?? { baseId: this.version, changes: [] },
      options.keepChanges ?? DEFAULT_APP_CONFIG.sse.replayEvents,
      options.reportError ?? ((error) => console.error(error)),
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
  get latest(): LatestList {
    return this.#pending;
  }

  list(): Todo[] {
    return Array.from(this.#items.values(), (stored) => stored.todo);
  }

  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }

  create(fields: TodoFields, idempotencyKey?: string): Promise<StoredTodo> {
    const todo = { id: crypto.randomUUID(), title: fields.title, completed: fields.completed };
    return this.#changeItem('created', todo, idempotencyKey);
  }

  createdWith(idempotencyKey: string): KeyedCreate | undefined {
    return createdWith(idempotencyKey, this.#pending, this.#announcements);
  }

  replace(id: string, fields: TodoFields): Promise<StoredTodo | undefined> {
    if (this.#pending.get(id) === undefined) return Promise.resolve(undefined);
    return this.#changeItem('updated', { id, title: fields.title, completed: fields.completed });
  }

  delete(id: string): Promise<StoredTodo | undefined> {
    const stored = this.#pending.get(id);
    if (stored === undefined) return Promise.resolve(undefined);
    const change = { type: 'deleted', todo: stored.todo, id: this.#nextId() } as const;
    return this.#make(change, stored, () => this.#items.delete(id));
  }

  rename(title: string): Promise<StoredList> {
    const list = Object.freeze({ id: this.listInfo.id, title });
    const change = { type: 'list-renamed', list, id: this.#nextId() } as const;
    const renamed: StoredList = { list, version: change.id };
    return this.#make(change, renamed, () => (this.#list = renamed));
  }

  settled(): Promise<void> {
    return this.#pending.count === 0 ? Promise.resolve() : this.#last.then(() => undefined);
  }

  subscribe(listener: ChangeListener): () => void {
    return this.#announcements.subscribe(listener);
  }

  changesSince(eventId: string): readonly ChangeEvent[] | undefined {
    return this.#announcements.since(eventId);
  }

  #changeItem(type: 'created' | 'updated', todo: Todo, idempotencyKey?: string) {
    const keyed = idempotencyKey === undefined ? {} : { idempotencyKey };
    const change: TodoChange = { type, todo: Object.freeze(todo), id: this.#nextId(), ...keyed };
    const stored: StoredTodo = { todo: change.todo, version: change.id };
    return this.#make(change, stored, () => this.#items.set(todo.id, stored));
  }

  /** The id of the change that comes next: after the latest list's, durable or not. */
  #nextId(): string {
    return eventIdOf({ run: this.#runId, sequence: this.#sequence + this.#pending.count + 1 });
  }

  /**
   * Makes `change` in the latest list and durable; once it is, `show` puts it where readers see
   * it, it is announced, and the promise resolves with `result`.
   */
  #make<T>(change: ChangeEvent, result: T, show: () => void): Promise<T> {
    const made = () => {
      show();
      this.#sequence += 1;
      this.#announcements.announce(change);
      return result;
    };
    const persist = this.#persist;
    if (persist === undefined) return Promise.resolve(made());
    this.#pending.add(change);
    const sequence = this.#sequence + this.#pending.count;
    const durable = new Promise<T>((resolve, reject) =>
      persist(change, sequence, (error) => {
        if (error === undefined) {
          this.#pending.shift();
          resolve(made());
        } else {
          // Every change made after this one fails with it, in this same call.
          if (this.#pending.oldest === change) this.#pending.clear();
          reject(error);
        }
      }),
    );
    this.#last = durable;
    return durable;
  }
}
