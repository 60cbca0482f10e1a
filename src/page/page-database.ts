import type { Todo } from '../model/resources.ts';

/** The page's own IndexedDB database: the last list seen, and edits not yet sent, per list. */
const NAME = 'todo-page';
const VERSION = 1;
const LAST_SEEN = 'last-seen';
export const EDITS = 'edits';
export const BY_LIST = 'by-list';

let opened: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  const request = indexedDB.open(NAME, VERSION);
  request.onupgradeneeded = () => {
    request.result.createObjectStore(LAST_SEEN, { keyPath: 'list' });
    const edits = request.result.createObjectStore(EDITS, { keyPath: 'seq', autoIncrement: true });
    edits.createIndex(BY_LIST, 'list');
  };
  return result(request);
}

export function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('An IndexedDB request failed.'));
  });
}

/** Runs `work` in a transaction on `store`; resolves once committed, with the change on disk. */
export async function transaction<T>(
  store: string,
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T> | Promise<T>,
): Promise<T> {
  const running = (await (opened ??= open())).transaction(store, mode);
  const done = new Promise<void>((resolve, reject) => {
    running.oncomplete = () => resolve();
    running.onabort = running.onerror = () =>
      reject(running.error ?? new Error('An IndexedDB transaction failed.'));
  });
  const request = work(running.objectStore(store));
  const value = await (request instanceof IDBRequest ? result(request) : request);
  await done;
  return value;
}

/** A list as this browser last saw it, with the version it was at (its last event's id). */
type SeenList = { readonly todos: readonly Todo[]; readonly version: string };

/** Each list (`''`: the default one) as last seen, for a page opened without a connection. */
export const lastSeen = {
  read(list: string): Promise<SeenList | undefined> {
    const get = (store: IDBObjectStore): IDBRequest<SeenList | undefined> => store.get(list);
    // Without storage (a private window may refuse it) there is nothing to show.
    return transaction(LAST_SEEN, 'readonly', get).catch(() => undefined);
  },
  write(list: string, { todos, version }: SeenList): void {
    const record = { list, todos, version };
    transaction(LAST_SEEN, 'readwrite', (store) => store.put(record)).catch(() => {});
  },
};

const VIEW_ID_KEY = 'todo-view-id ';

/** Each named list's view id, in `localStorage`, read at once, offline too: may a page edit? */
export const viewIds = {
  read(list: string): string | undefined {
    try {
      return localStorage.getItem(VIEW_ID_KEY + list) ?? undefined;
    } catch {
      // Storage off: the page reads the list to know.
      return undefined;
    }
  },
  write(list: string, viewId: string): void {
    try {
      localStorage.setItem(VIEW_ID_KEY + list, viewId);
    } catch {
      // Not kept: the next page reads the list again.
    }
  },
};
