import { eventIdOf } from '../model/events.ts';
import type { Todo, TodoFields } from '../model/resources.ts';
import {
  History,
  newRunId,
  type Change,
  type ItemChange,
  type ListStoreOptions,
  type Persist,
  type StoredList,
  type StoredTodo,
} from './changes.ts';
import { ItemKeys } from './idempotency.ts';
import { PendingChanges, type ListState } from './pending.ts';

/**
 * One list as readers see it: a change shows in `withPending` at once, for the next to be checked
 * against, and here, in the history and to listeners once `persist` has committed it.
 */
export class ListStore implements ListState {
  readonly run: string;
  #sequence: number;
  #resource: StoredList;
  readonly #items = new Map<string, StoredTodo>();
  readonly #history: History;
  readonly #keys: ItemKeys;
  readonly #listeners = new Set<(change: Change) => void>();
  readonly #persist: Persist | undefined;
  #pending: PendingChanges | undefined;
  readonly #reportError: (error: unknown) => void;
  /** The last change written: once it is committed, so is every change before it. */
  #lastWrite: Promise<unknown> = Promise.resolve();

  constructor({ start, persist, ...options }: ListStoreOptions) {
    this.#persist = persist;
    this.#reportError = options.reportError;
    this.run = start?.run ?? newRunId();
    this.#sequence = start?.sequence ?? 0;
    const info = options.info ?? { id: '', title: '' };
    this.#resource = start?.resource ?? { info, version: this.version };
    for (const item of start?.items ?? []) this.#items.set(item.todo.id, item);
    const kept = start?.changes ?? [];
    const baseId = eventIdOf({ run: this.run, sequence: this.#sequence - kept.length });
    this.#history = new History(baseId, kept, options.keepChanges);
    this.#keys = new ItemKeys(options.keys, start?.keys);
  }

  /** The version of the whole list: that of its last committed change, or the run's start. */
  get version(): string {
    return eventIdOf({ run: this.run, sequence: this.#sequence });
  }
  get resource(): StoredList {
    return this.#resource;
  }
  get listVersion(): string {
    return this.#resource.version;
  }
  get size(): number {
    return this.#items.size;
  }
  get(id: string): StoredTodo | undefined {
    return this.#items.get(id);
  }
  items(): IterableIterator<StoredTodo> {
    return this.#items.values();
  }

  /** The list with the changes not yet committed: what a change's conditions are checked on. */
  get withPending(): ListState {
    return this.#pending ?? this;
  }

  create(fields: TodoFields, key?: string): Promise<StoredTodo> {
    return this.#change('created', { id: crypto.randomUUID(), ...fields }, key);
  }

  /** `current`: the item as `withPending` holds it now. */
  replace(current: StoredTodo, fields: TodoFields): Promise<StoredTodo> {
    return this.#change('updated', { id: current.todo.id, ...fields });
  }

  delete(current: StoredTodo): Promise<StoredTodo> {
    return this.#make({ type: 'deleted', id: this.#nextId(), item: current }, current);
  }

  rename(title: string): Promise<StoredList> {
    const info = { id: this.#resource.info.id, title };
    const list = { info, version: this.#nextId() };
    return this.#make({ type: 'list-renamed', id: list.version, list }, list);
  }

  /** The item made with `key`, and whether it is committed, while the list keeps the key. */
  createdWith(key: string): { item: StoredTodo; committed: boolean } | undefined {
    const pending = this.#pending?.createdWith(key);
    if (pending !== undefined) return { item: pending.item, committed: false };
    const item = this.#keys.get(key);
    return item && { item, committed: true };
  }

  /** Resolves once every change made so far is committed; rejects when one cannot be. */
  settled(): Promise<unknown> {
    return this.#pending?.count ? this.#lastWrite : Promise.resolve();
  }

  subscribe(listener: (change: Change) => void): () => boolean {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  changesSince(eventId: string): readonly Change[] | undefined {
    return this.#history.since(eventId);
  }

  #change(type: 'created' | 'updated', todo: Todo, key?: string): Promise<StoredTodo> {
    const item = { todo, version: this.#nextId(), json: JSON.stringify(todo) };
    const change: ItemChange = { type, id: item.version, item };
    return this.#make(key === undefined ? change : { ...change, key }, item);
  }

  #nextSequence(): number {
    return this.#sequence + (this.#pending?.count ?? 0) + 1;
  }
  #nextId(): string {
    return eventIdOf({ run: this.run, sequence: this.#nextSequence() });
  }

  /** A write done before `persist` returns (a Durable Object's) never joins the pending ones. */
  #make<T>(change: Change, result: T): Promise<T> {
    if (this.#persist === undefined) {
      this.#commit(change);
      return Promise.resolve(result);
    }
    let written: { error?: unknown } | undefined;
    let done: (error?: unknown) => void = (error) => void (written = { error });
    this.#persist(change, this.#nextSequence(), (error) => done(error));
    if (written !== undefined) {
      if (written.error !== undefined) return Promise.reject(written.error);
      this.#commit(change);
      return Promise.resolve(result);
    }
    const pending = (this.#pending ??= new PendingChanges(this));
    pending.add(change);
    const commit = new Promise<T>((resolve, reject) => {
      done = (error) => {
        if (error === undefined) {
          pending.shift();
          this.#commit(change);
          return resolve(result);
        }
        // `persist` fails every later pending change too: the first failure drops them all.
        if (pending.oldest === change) pending.clear();
        reject(error);
      };
    });
    this.#lastWrite = commit;
    return commit;
  }

  #commit(change: Change): void {
    if (change.type === 'list-renamed') this.#resource = change.list;
    else if (change.type === 'deleted') this.#items.delete(change.item.todo.id);
    // Map.set keeps a replaced item's place: the list stays in creation order.
    else this.#items.set(change.item.todo.id, change.item);
    if (change.type === 'created' && change.key !== undefined) {
      this.#keys.record({ key: change.key, item: change.item, at: Date.now() });
    }
    this.#sequence += 1;
    this.#history.record(change);
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }
}
