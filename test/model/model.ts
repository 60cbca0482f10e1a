import type { TodoJson } from '../support/api.ts';

export interface ModelLimits {
  readonly maxBodyBytes: number;
  readonly maxTitleLength: number;
  readonly maxItems: number;
}

/**
 * The items of one list as the contract says they must be, plus what the model has learnt
 * from the service and cannot predict (ids and ETags, which are opaque). Every list has its
 * own: versions of different lists are unrelated.
 */
export class TodoModel {
  /** In creation order; an update keeps an item's place. */
  items: TodoJson[] = [];
  /** Ids that named an item once and no longer do. */
  readonly deleted: string[] = [];
  /** Every ETag each item has had, oldest first: the last is its current one. */
  readonly etags = new Map<string, string[]>();
  /**
   * Every ETag of this list the service has shown, of items, of the list and of its title: a
   * new version is none of these.
   */
  readonly versions = new Set<string>();
  /** The list's current ETag, unknown until seen after a change that did not answer with it. */
  listEtag: string | undefined;

  constructor(readonly limits: ModelLimits) {}

  find(id: string): TodoJson | undefined {
    return this.items.find((todo) => todo.id === id);
  }

  currentEtag(id: string): string | undefined {
    return this.etags.get(id)?.at(-1);
  }

  /** An ETag the item had before a later change, or else any version that is not its current. */
  staleEtag(id: string | undefined): string {
    const current = id === undefined ? this.listEtag : this.currentEtag(id);
    const own = id === undefined ? [] : (this.etags.get(id) ?? []);
    const previous = own.filter((etag) => etag !== current).at(-1);
    const other = [...this.versions].find((etag) => etag !== current);
    return previous ?? other ?? '"never-issued"';
  }

  learnListEtag(etag: string): void {
    this.versions.add(etag);
    this.listEtag = etag;
  }

  /** `etag` is what the answer carried: the new version, which is also the list's. */
  create(todo: TodoJson, etag: string | undefined): void {
    this.items.push(todo);
    this.etags.set(todo.id, []);
    this.#changedTo(todo.id, etag);
  }

  replace(todo: TodoJson, etag: string | undefined): void {
    this.items = this.items.map((item) => (item.id === todo.id ? todo : item));
    this.#changedTo(todo.id, etag);
  }

  delete(id: string): void {
    this.items = this.items.filter((item) => item.id !== id);
    this.deleted.push(id);
    // The list's new version is the delete's own, which its answer does not tell.
    this.listEtag = undefined;
  }

  #changedTo(id: string, etag: string | undefined): void {
    this.listEtag = etag;
    if (etag === undefined) return;
    this.etags.get(id)?.push(etag);
    this.versions.add(etag);
  }
}
