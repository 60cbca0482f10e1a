import { ENTER_KEY, ESCAPE_KEY, find } from './dom.ts';

interface ListViewHandlers {
  newList(): void;
  /** A title saved with Enter or by leaving the field, trimmed, maybe empty. */
  rename(title: string): void;
  copyLink(): void;
  copyViewLink(): void;
  deleteList(): void;
}

const LINK_COPIED_MS = 3000;
const PAGE_TITLE = 'todos';

/**
 * The list's own controls: its title, New list, the links to copy, Delete list, and whether the
 * list is view-only here, or gone.
 */
export class ListView {
  readonly #title = find<HTMLInputElement>(document, '.list-title');
  readonly #newList = find<HTMLButtonElement>(document, '.new-list');
  readonly #copyLink = find<HTMLButtonElement>(document, '.copy-link');
  readonly #copyViewLink = find<HTMLButtonElement>(document, '.copy-view-link');
  readonly #viewOnly = find<HTMLElement>(document, '.view-only');
  readonly #deleteList = find<HTMLButtonElement>(document, '.delete-list');
  readonly #copyStatus = find<HTMLElement>(document, '.copy-status');
  readonly #link = find<HTMLInputElement>(document, '.list-link');
  readonly #gone = find<HTMLElement>(document, '.list-gone');
  /** The title as the list has it, which the field shows whenever it is not being edited. */
  #shownTitle = '';
  #statusTimer: ReturnType<typeof setTimeout> | undefined;

  bind(handlers: ListViewHandlers): void {
    this.#newList.addEventListener('click', () => handlers.newList());
    this.#copyLink.addEventListener('click', () => handlers.copyLink());
    this.#copyViewLink.addEventListener('click', () => handlers.copyViewLink());
    this.#deleteList.addEventListener('click', () => handlers.deleteList());
    this.#title.addEventListener('keydown', (event) => {
      if (event.isComposing) return;
      if (event.key === ESCAPE_KEY) this.#title.value = this.#shownTitle;
      // Leaving the field saves it, as for an item.
      if (event.key === ENTER_KEY || event.key === ESCAPE_KEY) this.#title.blur();
    });
    this.#title.addEventListener('blur', () => {
      const title = this.#title.value.trim();
      this.#title.value = title;
      handlers.rename(title);
    });
  }

  /** A named list: it has a title and a link to share. */
  showNamed(): void {
    this.#copyLink.hidden = false;
  }

  /**
   * Opened by its edit id, the list can be renamed, deleted and shared view-only; by its view
   * id, it says so, and its own link is the view-only one.
   */
  showEditable(editable: boolean): void {
    this.#title.readOnly = !editable;
    this.#deleteList.hidden = !editable;
    this.#copyViewLink.hidden = !editable;
    this.#viewOnly.hidden = editable;
  }

  /** Shows the list's title, except in a field being edited: the edit is not disturbed. */
  showTitle(title: string): void {
    this.#shownTitle = title;
    this.#title.hidden = false;
    if (document.activeElement !== this.#title) this.#title.value = title;
    document.title = title === '' ? PAGE_TITLE : `${title} · ${PAGE_TITLE}`;
  }

  /** The list was deleted, or never existed: says so, and leaves only New list. */
  showGone(): void {
    const parts = [this.#title, this.#copyLink, this.#copyViewLink, this.#deleteList, this.#link];
    for (const part of [...parts, this.#viewOnly]) part.hidden = true;
    this.#say('');
    this.#gone.hidden = false;
    document.title = `No such list · ${PAGE_TITLE}`;
  }

  creatingList(busy: boolean): void {
    this.#newList.disabled = busy;
  }

  navigate(path: string): void {
    location.assign(path);
  }

  confirmDelete(): boolean {
    return confirm('Delete this list and all its items, for everyone who has its link?');
  }

  /**
   * Copies the link to `path`, the page's or its view-only one (`which`); without a clipboard,
   * or refused, selects it in a field instead.
   */
  async copyLink(path: string, which = 'Link'): Promise<void> {
    const url = new URL(path, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      this.#link.hidden = true;
      this.#say(`${which} copied`, LINK_COPIED_MS);
    } catch {
      this.#link.value = url;
      this.#link.hidden = false;
      this.#link.focus();
      this.#link.select();
      this.#say(`Copy the ${which.toLowerCase()} from the field`);
    }
  }

  #say(text: string, forMs?: number): void {
    clearTimeout(this.#statusTimer);
    this.#copyStatus.textContent = text;
    if (forMs !== undefined) this.#statusTimer = setTimeout(() => this.#say(''), forMs);
  }
}
