import type { Change, ItemChange, StoredTodo } from './changes.ts';

/** A list as readers see it, or as a change is checked against it. */
export interface ListState {
  readonly size: number;
  /** The list resource's ETag. */
  readonly listVersion: string;
  get(id: string): StoredTodo | undefined;
}

/**
 * A list's changes made and not yet committed, oldest first, laid over the committed list. What a
 * change made leaves the overlay once committed, unless a later one remade the item or title.
 */
export class PendingChanges implements ListState {
  readonly #committed: ListState;
  readonly #changes: Change[] = [];
  readonly #items = new Map<string, ItemChange>();
  #renamed: Change | undefined;
  /** Items the pending changes created, less those they deleted. */
  #added = 0;

  constructor(committed: ListState) {
    this.#committed = committed;
  }

  get count(): number {
    return this.#changes.length;
  }

  get oldest(): Change | undefined {
    return this.#changes[0];
  }

  get size(): number {
    return this.#committed.size + this.#added;
  }

  get listVersion(): string {
    return this.#renamed?.id ?? this.#committed.listVersion;
  }

  get(id: string): StoredTodo | undefined {
    const pending = this.#items.get(id);
    if (pending === undefined) return this.#committed.get(id);
    return pending.type === 'deleted' ? undefined : pending.item;
  }

  createdWith(key: string): ItemChange | undefined {
    return this.#changes.findLast(
      (change): change is ItemChange => change.type === 'created' && change.key === key,
    );
  }

  add(change: Change): void {
    this.#changes.push(change);
    if (change.type === 'list-renamed') {
      this.#renamed = change;
      return;
    }
    this.#items.set(change.item.todo.id, change);
    this.#added += addedBy(change);
  }

  /** The oldest change is committed now, and the committed list holds it. */
  shift(): void {
    const change = this.#changes.shift()!;
    if (change.type === 'list-renamed') {
      if (this.#renamed === change) this.#renamed = undefined;
      return;
    }
    const id = change.item.todo.id;
    if (this.#items.get(id) === change) this.#items.delete(id);
    this.#added -= addedBy(change);
  }

  /** None of the changes will be committed: the committed list is the latest again. */
  clear(): void {
    this.#changes.length = 0;
    this.#items.clear();
    this.#renamed = undefined;
    this.#added = 0;
  }
}

function addedBy(change: ItemChange): number {
  if (change.type === 'created') return 1;
  return change.type === 'deleted' ? -1 : 0;
}
