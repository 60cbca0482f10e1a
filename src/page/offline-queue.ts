import { BY_LIST, EDITS, result, transaction } from './page-database.ts';
import type { Edit } from './model.ts';

/** An edit as stored: `seq` orders the edits of all tabs, `list` says whose they are. */
export type StoredEdit = Edit & { readonly seq: number; readonly list: string };

type QueueMessage =
  { readonly kind: 'changed' } | { readonly kind: 'not-applied'; readonly notice: string };

const CHANNEL = 'todo-offline-edits-1';

interface QueueListener {
  /** The edits waiting changed, here or in another tab. */
  changed(): void;
  /** Edits did not apply; `notice` says which and why. Every tab of the list hears it. */
  notApplied(notice: string): void;
}

/** The edits of one list (`''`: the default) not sent yet, in order, kept for all its tabs. */
export class EditQueue {
  #edits: StoredEdit[] = [];
  /** Edits made here and not yet written: shown at once, sent only once written. */
  #unwritten: Edit[] = [];
  readonly #channel: BroadcastChannel | undefined;

  constructor(
    private readonly list: string,
    private readonly listener: QueueListener,
  ) {
    const shared = typeof BroadcastChannel === 'function';
    this.#channel = shared ? new BroadcastChannel(`${CHANNEL} ${list}`) : undefined;
  }

  /** The edits not sent, and those landed that the list shown may not show yet, in order. */
  get edits(): readonly Edit[] {
    return [...this.#edits, ...this.#unwritten];
  }

  /** How many edits are written and not yet sent: kept on this device, should the tab close. */
  get kept(): number {
    return this.#edits.filter((edit) => edit.landed === undefined).length;
  }

  get waiting(): number {
    return this.#unwritten.length + this.kept;
  }

  get next(): StoredEdit | undefined {
    return this.#edits.find((edit) => edit.landed === undefined);
  }

  async start(): Promise<void> {
    this.#channel?.addEventListener('message', ({ data }: MessageEvent<QueueMessage>) => {
      if (data?.kind === 'changed') void this.#reload();
      if (data?.kind === 'not-applied') this.listener.notApplied(data.notice);
    });
    await this.#reload();
  }

  async add(edit: Edit): Promise<void> {
    this.#unwritten.push(edit);
    this.listener.changed();
    try {
      await transaction(EDITS, 'readwrite', (store) => store.add({ ...edit, list: this.list }));
    } finally {
      // Written, it is among the edits read back; not written, it is not kept at all.
      this.#unwritten = this.#unwritten.filter((waiting) => waiting !== edit);
    }
    await this.#changed();
  }

  /** `edit` is on the service as item `id` at `version`, which later edits of the item build on. */
  async landed(edit: StoredEdit, id: string, version: string): Promise<void> {
    await this.#rewrite((stored, store) => {
      if (stored.seq === edit.seq) store.put({ ...stored, id, landed: version });
      else if (stored.id === edit.id && stored.kind !== 'create') {
        store.put({ ...stored, id, base: { ...stored.base, item: version } });
      }
    });
  }

  /** Takes out the edits that landed and that `shown` says the list shown has caught up with. */
  async settle(shown: (edit: Edit) => boolean): Promise<void> {
    const settled = this.#edits.filter((edit) => edit.landed !== undefined && shown(edit));
    if (settled.length === 0) return;
    const seqs = new Set(settled.map((edit) => edit.seq));
    await this.#rewrite((stored, store) => seqs.has(stored.seq) && store.delete(stored.seq));
  }

  /** Takes out `edit` and every edit of its item: they were made on what did not apply. */
  async drop(edit: StoredEdit, notice: string): Promise<void> {
    await this.#rewrite((stored, store) => stored.id === edit.id && store.delete(stored.seq));
    this.listener.notApplied(notice);
    this.#channel?.postMessage({ kind: 'not-applied', notice } satisfies QueueMessage);
  }

  async #rewrite(change: (stored: StoredEdit, store: IDBObjectStore) => unknown): Promise<void> {
    await transaction(EDITS, 'readwrite', async (store) => {
      for (const stored of await this.#read(store)) change(stored, store);
    });
    await this.#changed();
  }

  async #changed(): Promise<void> {
    await this.#reload();
    this.#channel?.postMessage({ kind: 'changed' } satisfies QueueMessage);
  }

  async #reload(): Promise<void> {
    // One list's records share the index key, so come in primary-key order: by seq, as made.
    this.#edits = await transaction(EDITS, 'readonly', (store) => this.#read(store));
    this.listener.changed();
  }

  async #read(store: IDBObjectStore): Promise<StoredEdit[]> {
    return (await result(store.index(BY_LIST).getAll(this.list))) as StoredEdit[];
  }
}
