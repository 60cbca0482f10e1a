import { ENTER_KEY, ESCAPE_KEY, find } from './dom.ts';

interface ListViewHandlers {
  newList(): void;
  /** A title saved with Enter or by leaving the field, trimmed, maybe empty. */
  rename(title: string): void;
  copyLink(): void;
  deleteList(): void;
}

const LINK_COPIED_MS = 3000;
const PAGE_TITLE = 'todos';

/** The list's own controls: its title, New list, Copy link, Delete list, and its gone state. */
export class ListView {
  readonly #title = find<HTMLInputElement>(document, '.list-title');
  readonly #newList = find<HTMLButtonElement>(document, '.new-list');
  readonly #copyLink = find<HTMLButtonElement>(document, '.copy-link');
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

  /** A named list: it has a title, a link to share and can be deleted. */
  showNamed(): void {
    this.#copyLink.hidden = false;
    this.#deleteList.hidden = false;
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
    for (const part of [this.#title, this.#copyLink, this.#deleteList, this.#link]) {
      part.hidden = true;
    }
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

  /** Copies the link to `path`; without a clipboard, or refused, selects it in a field instead. */
  async copyLink(path: string): Promise<void> {
    const url = new URL(path, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      this.#link.hidden = true;
      this.#say('Link copied', LINK_COPIED_MS);
    } catch {
      this.#link.value = url;
      this.#link.hidden = false;
      this.#link.focus();
      this.#link.select();
      this.#say('Copy the link from the field');
    }
  }

  #say(text: string, forMs?: number): void {
    clearTimeout(this.#statusTimer);
    this.#copyStatus.textContent = text;
    if (forMs !== undefined) this.#statusTimer = setTimeout(() => this.#say(''), forMs);
  }
}
