import { ApiError } from './api-client.ts';
import { element, find } from './dom.ts';
import type { ConnectionState } from './event-stream.ts';

/** The stream's state, and the events applied: tests see in them that none was lost or doubled. */
export interface StreamInfo {
  state: ConnectionState;
  snapshots: number;
  changes: number;
  lastEventId?: string;
}

const COPIED_MS = 3000;

/** The lines that say how things went: the connection, problems, edits kept, links copied. */
export class StatusView {
  readonly #connection = find<HTMLElement>(document, '.connection-status');
  readonly #problem = find<HTMLElement>(document, '.problem');
  readonly #pending = find<HTMLElement>(document, '.pending-status');
  readonly #notice = find<HTMLElement>(document, '.edit-notice');
  readonly #copyStatus = find<HTMLElement>(document, '.copy-status');
  readonly #linkField = find<HTMLInputElement>(document, '.list-link');
  /** The problem shown came from not reaching the service. */
  #transientProblem = false;
  #copyTimer: ReturnType<typeof setTimeout> | undefined;

  /** Says when the list may be out of date; its data attributes show the stream to tests. */
  showConnection(info: Readonly<StreamInfo>): void {
    this.#connection.textContent = info.state === 'reconnecting' ? 'Reconnecting…' : '';
    this.#connection.dataset.state = info.state;
    this.#connection.dataset.snapshots = String(info.snapshots);
    this.#connection.dataset.changes = String(info.changes);
    this.#connection.dataset.lastEventId = info.lastEventId ?? '';
  }

  /** Says why a request failed: a refusal until the next request, else until the stream opens. */
  showProblem(error: unknown): void {
    const known = error instanceof ApiError;
    this.#problem.textContent = known ? error.message : 'Something went wrong. Try again.';
    this.#transientProblem = !known || error.transient;
  }

  /** With `transientOnly`, the service is reachable again: only a failure to reach it goes. */
  clearProblem(transientOnly = false): void {
    if (transientOnly && !this.#transientProblem) return;
    this.#problem.textContent = '';
    this.#transientProblem = false;
  }

  /** How many edits are kept on this device to be sent; a deleted item's shows nowhere else. */
  showPending(count: number): void {
    const edits = count === 1 ? '1 change' : `${count} changes`;
    this.#pending.textContent = count === 0 ? '' : `${edits} not sent yet: kept on this device`;
  }

  /** Says which edits did not apply, until the next edit. */
  showNotice(notice: string | undefined): void {
    if (notice === undefined) this.#notice.replaceChildren();
    else this.#notice.append(element('span', { textContent: `${notice} ` }));
  }

  /** Copies the link to `path` (`which`); without a clipboard, or refused, shows it to copy. */
  async copyLink(path: string, which = 'Link'): Promise<void> {
    const url = new URL(path, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      this.#linkField.hidden = true;
      this.#sayCopy(`${which} copied`, COPIED_MS);
    } catch {
      this.#linkField.value = url;
      this.#linkField.hidden = false;
      this.#linkField.focus();
      this.#linkField.select();
      this.#sayCopy(`Copy the ${which.toLowerCase()} from the field`);
    }
  }

  /** The list is gone: no link to copy. */
  hideLink(): void {
    this.#linkField.hidden = true;
    this.#sayCopy('');
  }

  #sayCopy(text: string, forMs?: number): void {
    clearTimeout(this.#copyTimer);
    this.#copyStatus.textContent = text;
    if (forMs !== undefined) this.#copyTimer = setTimeout(() => this.#sayCopy(''), forMs);
  }
}
