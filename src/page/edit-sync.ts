import { ApiError, type TodoApi } from './api-client.ts';
import { compareVersions } from './event-order.ts';
import type { EditQueue, StoredEdit } from './offline-queue.ts';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
const CHANGED_ELSEWHERE = 'it was changed elsewhere meanwhile.';

/** Sends the queued edits in order from the tab holding the open stream; retries those not sent. */
export class EditSync {
  #running = false;
  /** The queue changed while it was being sent: look again once done. */
  #again = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly queue: EditQueue,
    private readonly api: TodoApi,
    private readonly maySend: () => boolean,
  ) {}

  async run(): Promise<void> {
    if (this.#running) this.#again = true;
    if (this.#running || !this.maySend()) return;
    clearTimeout(this.#timer);
    this.#running = true;
    this.#again = false;
    try {
      for (let edit = this.queue.next; edit && this.maySend(); edit = this.queue.next) {
        // Not done with: not reached, failed, or still being handled as the same create.
        if (!(await this.#send(edit).catch(() => false))) return this.#retryLater();
        this.#failures = 0;
      }
    } finally {
      this.#running = false;
    }
    if (this.#again) void this.run();
  }

  #retryLater(): void {
    const delay = Math.min(FIRST_RETRY_MS * 2 ** this.#failures, MAX_RETRY_MS);
    this.#failures += 1;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.run(), delay);
  }

  /** True once the edit is done with (landed, or dropped as not applied); false: try later. */
  async #send(edit: StoredEdit): Promise<boolean> {
    try {
      let ifMatch: string | undefined;
      if (edit.kind !== 'create') {
        ifMatch = await this.#versionMadeOn(edit);
        if (ifMatch === undefined) return this.#notApplied(edit, CHANGED_ELSEWHERE);
      }
      const sent = await this.api.sendEdit(edit, ifMatch);
      return this.#landed(edit, sent?.todo.id ?? edit.id, sent?.version ?? '');
    } catch (error) {
      return this.#failed(edit, error);
    }
  }

  /** The version for `If-Match`: the item's own, or its current one if no later than the list's. */
  async #versionMadeOn(edit: Exclude<StoredEdit, { kind: 'create' }>): Promise<string | undefined> {
    if (edit.base.item !== undefined) return edit.base.item;
    const { version } = await this.api.read(edit.id);
    return (compareVersions(version, edit.base.list ?? '') ?? 1) <= 0 ? version : undefined;
  }

  async #failed(edit: StoredEdit, error: unknown): Promise<boolean> {
    if (!(error instanceof ApiError) || error.transient || error.status === 409) return false;
    if (edit.kind === 'create') return this.#notApplied(edit, error.message);
    if (error.status === 404) {
      // What a delete asked for is so; a change has nothing left to change.
      if (edit.kind === 'delete') return this.#landed(edit, edit.id, '');
      return this.#notApplied(edit, 'it was deleted elsewhere.');
    }
    if (error.status !== 412) return this.#notApplied(edit, error.message);
    if (edit.kind === 'update') {
      // An earlier try may have landed, its answer lost: then the item is as the edit wants it.
      const now = await this.api.read(edit.id).catch(() => undefined);
      const same = now?.todo.title === edit.title && now.todo.completed === edit.completed;
      if (same) return this.#landed(edit, edit.id, now.version);
    }
    return this.#notApplied(edit, CHANGED_ELSEWHERE);
  }

  /** On the service as item `id` at `version` (empty for a delete). */
  async #landed(edit: StoredEdit, id: string, version: string): Promise<true> {
    await this.queue.landed(edit, id, version);
    return true;
  }

  async #notApplied(edit: StoredEdit, why: string): Promise<true> {
    await this.queue.drop(edit, `Your edit of “${edit.label}” did not apply: ${why}`);
    return true;
  }
}
