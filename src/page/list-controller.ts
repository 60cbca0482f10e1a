import { listPageOf } from '../model/resources.ts';
import type { IdentifiedEvent } from '../model/events.ts';
import { isNotFound } from './api-request.ts';
import type { ListApi } from './list-api.ts';
import { ListTitle } from './list-title.ts';
import type { ListView } from './list-view.ts';
import type { ConnectionState } from './event-stream.ts';
import type { Problems } from './problems.ts';

/**
 * The list itself, beside its items: a named list's title, its link and its deletion, and the
 * New list control every page has. The title shown is the latest version heard, however it
 * came; a list found gone ends the feed, which tells every tab of it.
 */
export class ListController {
  readonly #title = new ListTitle();
  #gone = false;

  /** `listId` is undefined on the default list; `end` stops the feed when the list is gone. */
  constructor(
    private readonly listId: string | undefined,
    private readonly api: ListApi,
    private readonly view: ListView,
    private readonly problems: Problems,
    private readonly end: () => void,
  ) {}

  start(): void {
    this.view.bind({
      newList: () => this.#newList(),
      rename: (title) => this.#rename(title),
      copyLink: () => this.#copyLink(),
      deleteList: () => this.#deleteList(),
    });
    if (this.listId !== undefined) this.view.showNamed();
  }

  /** The feed calls this for every event it reads. */
  receive(event: IdentifiedEvent): void {
    // A snapshot carries the items only: the title is read beside it.
    if (event.type === 'snapshot') this.#readTitle();
    else if (event.type === 'list-renamed') this.#showTitle(event.list.title, event.id);
  }

  /** The feed calls this when its state changes. */
  connection(state: ConnectionState): void {
    if (state !== 'gone') return;
    this.#gone = true;
    this.view.showGone();
  }

  /** A request on the list's items was answered 404: the list itself may be gone. */
  check(): void {
    if (this.listId === undefined || this.#gone) return;
    this.api.exists(this.listId).then(
      (exists) => {
        if (!exists) this.end();
      },
      () => {},
    );
  }

  #readTitle(): void {
    if (this.listId === undefined) return;
    this.api.read(this.listId).then(
      ({ title, version }) => this.#showTitle(title, version),
      // Any other failure leaves the title as it was, until the next snapshot reads it again.
      (error: unknown) => {
        if (isNotFound(error)) this.end();
      },
    );
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
        this.problems.show(error);
      },
    );
  }

  #rename(title: string): void {
    const current = this.#title.title;
    if (this.listId === undefined || this.#gone || current === undefined || title === current) {
      return;
    }
    this.api.rename(this.listId, title).then(
      (saved) => {
        this.problems.clear();
        this.#showTitle(saved.title, saved.version);
      },
      (error: unknown) => {
        this.view.showTitle(this.#title.title ?? current);
        this.#failed(error);
      },
    );
  }

  #copyLink(): void {
    if (this.listId !== undefined) void this.view.copyLink(listPageOf(this.listId));
  }

  #deleteList(): void {
    if (this.listId === undefined || !this.view.confirmDelete()) return;
    this.api.remove(this.listId).then(
      () => this.end(),
      (error: unknown) => this.#failed(error),
    );
  }

  /** A request on the list itself failed; on its route, a 404 says the list is gone. */
  #failed(error: unknown): void {
    if (isNotFound(error)) this.end();
    else this.problems.show(error);
  }
}
