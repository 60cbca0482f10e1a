import type { IdentifiedEvent } from '../model/events.ts';
import { listPageOf } from '../model/resources.ts';
import { isNotFound, type ListApi } from './api-client.ts';
import { compareVersions } from './event-order.ts';
import type { ConnectionState } from './event-stream.ts';
import type { ListView } from './list-view.ts';
import { viewIds } from './page-database.ts';
import type { TodoView } from './view.ts';

/**
 * A named list's title: read from its route (the ETag its version), told by a `list-renamed`
 * event (its id), or answered to a rename, in any order; the later version wins.
 */
export class ListTitle {
  #title: string | undefined;
  #version: string | undefined;

  /** The title, or undefined until one arrives. */
  get title(): string | undefined {
    return this.#title;
  }

  /**
   * Takes `title` unless the one held is as late; true if it took it. A version of another run,
   * or one this page cannot place, is taken: the newest word is the best there is.
   */
  accept(title: string, version: string): boolean {
    const held = this.#version;
    if (held !== undefined && (version === held || (compareVersions(version, held) ?? 1) <= 0)) {
      return false;
    }
    this.#title = title;
    this.#version = version;
    return true;
  }
}

/**
 * The list itself, beside its items: a named list's title, links and deletion, and New list;
 * and whether this page may change the list at all.
 */
export class ListController {
  readonly #title = new ListTitle();
  #gone = false;
  /** The named list's view id, once known: the page's own id if it is a view-only page. */
  #viewId: string | undefined;

  /**
   * `listId` is undefined on the default list; `end` stops the feed when the list is gone;
   * `allowEdits` hears whether the page may change the items.
   */
  constructor(
    private readonly listId: string | undefined,
    private readonly api: ListApi,
    private readonly view: ListView,
    private readonly problems: Pick<TodoView, 'showProblem' | 'clearProblem'>,
    private readonly end: () => void,
    private readonly allowEdits: (editable: boolean) => void,
  ) {}

  /** The default list, or a named one known to be opened by its edit id. */
  get #editable(): boolean {
    return (
      this.listId === undefined || (this.#viewId !== undefined && this.#viewId !== this.listId)
    );
  }

  start(): void {
    this.view.bind({
      newList: () => this.#newList(),
      rename: (title) => this.#rename(title),
      copyLink: () => this.listId !== undefined && this.view.copyLink(listPageOf(this.listId)),
      copyViewLink: () =>
        this.#editable &&
        this.#viewId !== undefined &&
        this.view.copyLink(listPageOf(this.#viewId), 'View-only link'),
      deleteList: () => this.#deleteList(),
    });
    if (this.listId === undefined) return this.allowEdits(true);
    this.view.showNamed();
    // Until the list is read, or was read before, the page changes nothing: it may be view-only.
    const known = viewIds.read(this.listId);
    if (known !== undefined) this.#learnViewId(known);
  }

  receive(event: IdentifiedEvent): void {
    // A snapshot carries the items only: the title is read beside it.
    if (event.type === 'snapshot') this.check();
    else if (event.type === 'list-renamed') this.#showTitle(event.list.title, event.id);
  }

  connection(state: ConnectionState): void {
    if (state !== 'gone') return;
    this.#gone = true;
    this.view.showGone();
  }

  /** Reads the list: its title, or that it is gone, as a 404 on its items may also mean. */
  check(): void {
    if (this.listId === undefined || this.#gone) return;
    this.api.read(this.listId).then(
      ({ title, version, viewId }) => {
        this.#learnViewId(viewId);
        this.#showTitle(title, version);
      },
      // Any other failure leaves the title as it was, until the next snapshot reads it again.
      (error: unknown) => isNotFound(error) && this.end(),
    );
  }

  /** Through a view id the list answers that id as its own: the page is view-only. */
  #learnViewId(viewId: string): void {
    if (this.listId === undefined || viewId === this.#viewId) return;
    this.#viewId = viewId;
    viewIds.write(this.listId, viewId);
    this.view.showEditable(this.#editable);
    this.allowEdits(this.#editable);
  }

  #showTitle(title: string, version: string): void {
    if (this.#title.accept(title, version) && !this.#gone) this.view.showTitle(title);
  }

  #newList(): void {
    this.view.creatingList(true);
    this.api.create().then(
      (list) => this.view.navigate(listPageOf(list.id)),
      (error: unknown) => {
        this.view.creatingList(false);
        this.problems.showProblem(error);
      },
    );
  }

  #rename(title: string): void {
    const current = this.#title.title;
    const unchanged = current === undefined || title === current;
    if (this.listId === undefined || !this.#editable || this.#gone || unchanged) return;
    this.api.rename(this.listId, title).then(
      (saved) => {
        this.problems.clearProblem();
        this.#showTitle(saved.title, saved.version);
      },
      (error: unknown) => {
        this.view.showTitle(this.#title.title ?? current);
        this.#failed(error);
      },
    );
  }

  #deleteList(): void {
    if (this.listId === undefined || !this.#editable || !this.view.confirmDelete()) return;
    this.api.remove(this.listId).then(this.end, (error: unknown) => this.#failed(error));
  }

  /** A request on the list itself failed; on its route, a 404 says the list is gone. */
  #failed(error: unknown): void {
    if (isNotFound(error)) this.end();
    else this.problems.showProblem(error);
  }
}
