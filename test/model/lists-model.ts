import type { ListJson } from '../support/lists.ts';
import { ListModel } from './list-model.ts';
import type { ModelLimits } from './model.ts';

/**
 * The reference model of the whole service: the default list, the named lists in the order
 * they were made, and those deleted, kept to address them again and to tell their streams'
 * end.
 */
export class ListsModel {
  readonly defaultList: ListModel;
  readonly named: ListModel[] = [];
  readonly deleted: ListModel[] = [];

  /** `maxLists` where the host bounds the named lists it holds. */
  constructor(
    readonly limits: ModelLimits,
    readonly maxLists: number | undefined,
  ) {
    this.defaultList = new ListModel('', '', limits);
  }

  /** The list `id` names now: `''` the default list; undefined when it names none. */
  find(id: string): ListModel | undefined {
    return id === '' ? this.defaultList : this.named.find((list) => list.id === id);
  }

  /** The default list, then the named ones. */
  get live(): ListModel[] {
    return [this.defaultList, ...this.named];
  }

  get full(): boolean {
    return this.maxLists !== undefined && this.named.length >= this.maxLists;
  }

  /** Every id a list was made with. */
  issuedIds(): Set<string> {
    return new Set([...this.named, ...this.deleted].map((list) => list.id));
  }

  create(info: ListJson, etag: string | undefined): void {
    this.named.push(new ListModel(info.id, info.title, this.limits, etag, info.viewId));
  }

  delete(list: ListModel): void {
    this.named.splice(this.named.indexOf(list), 1);
    list.deletedAs = list.info;
    this.deleted.push(list);
  }
}
