import { ApiError, type TodoApi } from './api-client.ts';
import { compareVersions } from './event-order.ts';
import type { EditQueue } from './offline-queue.ts';
import type { Edit } from './pending-edit.ts';

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;
const CHANGED_ELSEWHERE = 'it was changed elsewhere meanwhile.';

/**
 * What became of an edit sent: `landed` (as item `id` at `version`, empty for a delete), to
 * `retry` later (not reached, failed, or still handling the same create), or `refused`.
 */
type Outcome =
  | { readonly kind: 'landed'; readonly id: string; readonly version: string }
  | { readonly kind: 'retry' }
  | { readonly kind: 'refused'; readonly notice: string };

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

  /** Sends what waits, if this tab may and is not sending already. */
  async run(): Promise<void> {
    if (this.#running) this.#again = true;
    if (this.#running || !this.maySend()) return;
    clearTimeout(this.#timer);
    this.#running = true;
    this.#again = false;
    const sentAll = await this.#sendQueued().catch(() => undefined);
    this.#running = false;
    if (sentAll === undefined) this.#retryLater();
    else if (sentAll && this.#again) void this.run();
  }

  /** Whether it got to the end of the queue, rather than stopping to try again later. */
  async #sendQueued(): Promise<boolean> {
    for (let edit = this.queue.next; edit !== undefined; edit = this.queue.next) {
      if (!this.maySend()) return false;
      const outcome = await this.#send(edit);
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
    this.#timer = setTimeout(() => void this.run(), delay);
  }

  /** Sends one edit: a create with its key, a change or a delete on the version it was made on. */
  async #send(edit: Edit): Promise<Outcome> {
    try {
      if (edit.kind === 'create') {
        const { todo, version } = await this.api.create(edit.title, edit.key);
        return { kind: 'landed', id: todo.id, version };
      }
      const ifMatch = await this.#versionMadeOn(edit);
      if (ifMatch === undefined) return notApplied(edit, CHANGED_ELSEWHERE);
      if (edit.kind === 'delete') {
        await this.api.remove(edit.id, ifMatch);
        return { kind: 'landed', id: edit.id, version: '' };
      }
      const { version } = await this.api.update(edit, ifMatch);
      return { kind: 'landed', id: edit.id, version };
    } catch (error) {
      return this.#failed(edit, error);
    }
  }

  /** The version for `If-Match`: the item's own, or its current one if no later than the list's. */
  async #versionMadeOn(edit: Exclude<Edit, { kind: 'create' }>): Promise<string | undefined> {
    if (edit.base.item !== undefined) return edit.base.item;
    const { version } = await this.api.read(edit.id);
    return (compareVersions(version, edit.base.list ?? '') ?? 1) <= 0 ? version : undefined;
  }

  async #failed(edit: Edit, error: unknown): Promise<Outcome> {
    if (!(error instanceof ApiError) || error.transient || error.status === 409) {
      return { kind: 'retry' };
    }
    if (edit.kind === 'create') return notApplied(edit, error.message);
    if (error.status === 404) {
      // What a delete asked for is so; a change has nothing left to change.
      if (edit.kind === 'delete') return { kind: 'landed', id: edit.id, version: '' };
      return notApplied(edit, 'it was deleted elsewhere.');
    }
    if (error.status !== 412) return notApplied(edit, error.message);
    if (edit.kind === 'update') {
      // An earlier try may have landed, its answer lost: then the item is as the edit wants it.
      const now = await this.api.read(edit.id).catch(() => undefined);
      const same = now?.todo.title === edit.title && now.todo.completed === edit.completed;
      if (same) return { kind: 'landed', id: edit.id, version: now.version };
    }
    return notApplied(edit, CHANGED_ELSEWHERE);
  }
}

function notApplied(edit: Edit, why: string): Outcome {
  return { kind: 'refused', notice: `Your edit of “${edit.label}” did not apply: ${why}` };
}
