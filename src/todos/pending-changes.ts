import type { ChangeEvent } from '../live/events.ts';
import type { LatestList, StoredList, StoredTodo } from './store.ts';

/** What an item or the title became, and the change that made it so. */
interface Overlaid<T> {
  readonly value: T;
  readonly by: ChangeEvent;
}

/**
 * A list's changes that are made but not yet durable, oldest first, laid over the durable list:
 * together they are the latest list. A change leaves the overlay once it is durable and the
 * durable list holds it, unless a later change, still pending, overlays the same item.
 */
export class PendingChanges implements LatestList {
  readonly #durable: LatestList;
  readonly #changes: ChangeEvent[] = [];
  /** An item's latest version; undefined once deleted. */
  readonly #items = new Map<string, Overlaid<StoredTodo | undefined>>();
  #list: Overlaid<StoredList> | undefined;
  /** Items created less items deleted. */
  #added = 0;

  constructor(durable: LatestList) {
    this.#durable = durable;
  }

  /** How many changes wait to be durable. */
  get count(): number {
    return this.#changes.length;
  }

  get oldest(): ChangeEvent | undefined {
    return this.#changes[0];
  }

  /** The newest change waiting to be durable that `matches`, if any. */
  findLatest(matches: (change: ChangeEvent) => boolean): ChangeEvent | undefined {
    return this.#changes.findLast(matches);
  }

  get size(): number {
    return this.#durable.size + this.#added;
  }

  get listVersion(): string {
    return this.#list?.value.version ?? this.#durable.listVersion;
  }

  get(id: string): StoredTodo | undefined {
    const overlaid = this.#items.get(id);
    return overlaid === undefined ? this.#durable.get(id) : overlaid.value;
  }

  add(change: ChangeEvent): void {
    this.#changes.push(change);
    if (change.type === 'list-renamed') {
      this.#list = { value: { list: change.list, version: change.id }, by: change };
      return;
    }
    const value = change.type === 'deleted' ? undefined : { todo: change.todo, version: change.id };
    this.#items.set(change.todo.id, { value, by: change });
    this.#added += addedBy(change);
  }

  /** The oldest change is durable now, and the durable list holds it. */
  shift(): void {
    const change = this.#changes.shift();
    if (change === undefined) return;
    if (change.type === 'list-renamed') {
      if (this.#list?.by === change) this.#list = undefined;
      return;
    }
    if (this.#items.get(change.todo.id)?.by === change) this.#items.delete(change.todo.id);
    this.#added -= addedBy(change);
  }

  /** None of the changes will be durable: the latest list is the durable one again. */
  clear(): void {
    this.#changes.length = 0;
    this.#items.clear();
    this.#list = undefined;
    this.#added = 0;
  }
}

function addedBy(change: ChangeEvent): number {
  if (change.type === 'created') return 1;
  return change.type === 'deleted' ? -1 : 0;
}
