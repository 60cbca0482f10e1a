import type { IdentifiedEvent } from '../model/events.ts';
import { listPageOf } from '../model/resources.ts';
import { isNotFound, type ListApi } from './api-client.ts';
import { find } from './dom.ts';
import { isLaterTitle } from './event-order.ts';
import type { ConnectionState } from './event-stream.ts';
import { viewIds } from './page-database.ts';
import type { StatusView } from './status-view.ts';

const PAGE_TITLE = 'todos';

/** The list itself: its title, New list, the links, Delete list, whether it may be changed. */
export class ListController {
  readonly #titleField = find<HTMLInputElement>(document, '.list-title');
  readonly #newList = find<HTMLButtonElement>(document, '.new-list');
  readonly #copyLink = find<HTMLButtonElement>(document, '.copy-link');
  readonly #copyViewLink = find<HTMLButtonElement>(document, '.copy-view-link');
  readonly #viewOnly = find<HTMLElement>(document, '.view-only');
  readonly #deleteList = find<HTMLButtonElement>(document, '.delete-list');
  readonly #goneNotice = find<HTMLElement>(document, '.list-gone');
  #gone = false;
  /** A named list's title, and the version it was set at: a read's ETag, an event's id. */
  #title: string | undefined;
  #titleVersion: string | undefined;
  /** The named list's view id, once known: the page's own id if it is a view-only page. */
  #viewId: string | undefined;

  /** `listId` is undefined on the default list; `end` stops the feed when the list is gone. */
  constructor(
    private readonly listId: string | undefined,
    private readonly api: ListApi,
    private readonly status: StatusView,
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
    const { listId } = this;
    this.#newList.addEventListener('click', () => this.#createList());
    this.#copyLink.addEventListener(
      'click',
      () => listId && this.status.copyLink(listPageOf(listId)),
    );
    this.#copyViewLink.addEventListener('click', () => {
      if (this.#editable && this.#viewId !== undefined) {
        void this.status.copyLink(listPageOf(this.#viewId), 'View-only link');
      }
    });
    this.#deleteList.addEventListener('click', () => this.#delete());
    this.#titleField.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === 'Escape') this.#titleField.value = this.#title ?? '';
      // Leaving the field saves it, as for an item.
      if (event.key === 'Enter' || event.key === 'Escape') this.#titleField.blur();
    });
    this.#titleField.addEventListener('blur', () => {
      this.#titleField.value = this.#titleField.value.trim();
      this.#rename(this.#titleField.value);
    });
    if (listId === undefined) return this.allowEdits(true);
    this.#copyLink.hidden = false;
    // Until the list is read, or was read before, the page changes nothing: it may be view-only.
    const known = viewIds.read(listId);
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
    const parts = [this.#titleField, this.#copyLink, this.#copyViewLink, this.#deleteList];
    for (const part of [...parts, this.#viewOnly]) part.hidden = true;
    this.status.hideLink();
    this.#goneNotice.hidden = false;
    document.title = `No such list · ${PAGE_TITLE}`;
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

  /** Opened by its view id, the list answers that id as its own: the page is view-only. */
  #learnViewId(viewId: string): void {
    if (this.listId === undefined || viewId === this.#viewId) return;
    this.#viewId = viewId;
    viewIds.write(this.listId, viewId);
    const editable = this.#editable;
    this.#titleField.readOnly = !editable;
    this.#deleteList.hidden = !editable;
    this.#copyViewLink.hidden = !editable;
    this.#viewOnly.hidden = editable;
    this.allowEdits(editable);
  }

  /** Told the title by a read, an event or a rename's answer, in any order: the later wins. */
  #showTitle(title: string, version: string): void {
    if (!isLaterTitle(version, this.#titleVersion)) return;
    this.#title = title;
    this.#titleVersion = version;
    if (!this.#gone) this.#showTitleField();
  }

  /** Shows the list's title, except in a field being edited: the edit is not disturbed. */
  #showTitleField(): void {
    const title = this.#title ?? '';
    this.#titleField.hidden = false;
    if (document.activeElement !== this.#titleField) this.#titleField.value = title;
    document.title = title === '' ? PAGE_TITLE : `${title} · ${PAGE_TITLE}`;
  }

  #createList(): void {
    this.#newList.disabled = true;
    this.api.create().then(
      (list) => location.assign(listPageOf(list.id)),
      (error: unknown) => {
        this.#newList.disabled = false;
        this.status.showProblem(error);
      },
    );
  }

  #rename(title: string): void {
    const unchanged = this.#title === undefined || title === this.#title;
    if (this.listId === undefined || !this.#editable || this.#gone || unchanged) return;
    this.api.rename(this.listId, title).then(
      (saved) => {
        this.status.clearProblem();
        this.#showTitle(saved.title, saved.version);
      },
      (error: unknown) => {
        this.#showTitleField();
        this.#failed(error);
      },
    );
  }

  #delete(): void {
    const question = 'Delete this list and all its items, for everyone who has its link?';
    if (this.listId === undefined || !this.#editable || !confirm(question)) return;
    this.api.remove(this.listId).then(this.end, (error: unknown) => this.#failed(error));
  }

  /** A request on the list itself failed; on its route, a 404 says the list is gone. */
  #failed(error: unknown): void {
    if (isNotFound(error)) this.end();
    else this.status.showProblem(error);
  }
}
