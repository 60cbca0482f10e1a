import { find } from './dom.ts';

const COPIED_MS = 3000;

/** Copies a link of the list, and says so; without a clipboard, or refused, shows it to copy. */
export class LinkCopier {
  readonly #status = find<HTMLElement>(document, '.copy-status');
  readonly #field = find<HTMLInputElement>(document, '.list-link');
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Copies the link to `path`, the page's or its view-only one (`which`). */
  async copy(path: string, which = 'Link'): Promise<void> {
    const url = new URL(path, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      this.#field.hidden = true;
      this.#say(`${which} copied`, COPIED_MS);
    } catch {
      this.#field.value = url;
      this.#field.hidden = false;
      this.#field.focus();
      this.#field.select();
      this.#say(`Copy the ${which.toLowerCase()} from the field`);
    }
  }

  /** The list is gone: no link to copy. */
  hide(): void {
    this.#field.hidden = true;
    this.#say('');
  }

  #say(text: string, forMs?: number): void {
    clearTimeout(this.#timer);
    this.#status.textContent = text;
    if (forMs !== undefined) this.#timer = setTimeout(() => this.#say(''), forMs);
  }
}
