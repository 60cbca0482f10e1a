import { sendEdit } from './edit-sender.ts';
import type { EditQueue } from './offline-queue.ts';
import type { TodoApi } from './todo-api.ts';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/**
 * Sends a list's queued edits, one at a time and in order, from the one tab that may: the one
 * holding the list's stream, while it is open. An edit that lands or is refused leaves the
 * queue; one that could not be sent stays first, and is tried again later with the same key or
 * version, so an edit whose answer was lost lands once.
 */
export class EditSync {
  #running = false;
  /** The queue changed while it was being sent: look again once done. */
  #again = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `maySend` says whether this tab sends the queue now. */
  constructor(
    private readonly queue: EditQueue,
    private readonly api: TodoApi,
    private readonly maySend: () => boolean,
  ) {}

  /** Sends what waits, if this tab may and is not sending already. */
  run(): void {
    if (this.#running) this.#again = true;
    if (this.#running || !this.maySend()) return;
    clearTimeout(this.#timer);
    this.#running = true;
    this.#again = false;
    this.#sendQueued().then(
      (sentAll) => {
        this.#running = false;
        if (sentAll && this.#again) this.run();
      },
      () => {
        this.#running = false;
        this.#retryLater();
      },
    );
  }

  /** Whether it got to the end of the queue, rather than stopping to try again later. */
  async #sendQueued(): Promise<boolean> {
    for (let edit = this.queue.next; edit !== undefined; edit = this.queue.next) {
      if (!this.maySend()) return false;
      const outcome = await sendEdit(this.api, edit);
      if (outcome.kind === 'retry') {
        this.#retryLater();
        return false;
      }
      this.#failures = 0;
      if (outcome.kind === 'landed') await this.queue.landed(edit, outcome.id, outcome.version);
      else await this.queue.drop(edit, outcome.notice);
    }
    return true;
  }

  #retryLater(): void {
    const delay = Math.min(FIRST_RETRY_MS * 2 ** this.#failures, MAX_RETRY_MS);
    this.#failures += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.run(), delay);
  }
}
