import type { ListJson } from '../support/lists.ts';
import { ChangeLog, type ModelChange } from './change-log.ts';
import { TodoModel, type ModelLimits } from './model.ts';

/**
 * One list: the default list (id `''`, which has no title of its own to read or change) or a
 * named one, with its items, its title and every change it has had.
 */
export class ListModel {
  readonly items: TodoModel;
  readonly log: ChangeLog;
  title: string;
  /** Every ETag the title has had, oldest first: the last is its current one. */
  readonly titleEtags: string[] = [];
  /** The list as it was deleted, which is the last event its streams tell. */
  deletedAs: ListJson | undefined;

  /** `etag` is a new named list's, which is both its title's version and its items'. */
  constructor(
    readonly id: string,
    title: string,
    limits: ModelLimits,
    etag?: string,
    /** A named list's view id, as its create answered. */
    readonly viewId = '',
  ) {
    this.title = title;
    this.items = new TodoModel(limits);
    this.log = new ChangeLog(etag);
    if (etag === undefined) return;
    this.titleEtags.push(etag);
    this.items.learnListEtag(etag);
  }

  get info(): ListJson {
    return { id: this.id, title: this.title, viewId: this.viewId };
  }

  get titleEtag(): string | undefined {
    return this.titleEtags.at(-1);
  }

  /** An ETag the title had before a rename, or else another version of this list. */
  staleTitleEtag(): string {
    const current = this.titleEtag;
    const previous = this.titleEtags.filter((etag) => etag !== current).at(-1);
    const other = [...this.items.versions].find((etag) => etag !== current);
    return previous ?? other ?? '"never-issued"';
  }

  /** The list's version now, seen after a change whose answer did not tell it. */
  learnVersion(etag: string): void {
    this.items.learnListEtag(etag);
    this.log.learnVersion(etag);
  }

  /** Logs the change just made to the items, with its version when the model knows it. */
  logItemChange(change: ModelChange, command: string): void {
    this.log.record(change, command, this.items.items, this.items.listEtag);
  }

  /** A rename's version is the list's new version, as for any change. */
  rename(title: string, etag: string | undefined, command: string): void {
    this.title = title;
    // Without an ETag in the answer, the list's version is unknown until seen.
    this.items.listEtag = undefined;
    if (etag !== undefined) {
      this.titleEtags.push(etag);
      this.items.learnListEtag(etag);
    }
    this.log.record({ type: 'list-renamed', list: this.info }, command, this.items.items, etag);
  }
}
