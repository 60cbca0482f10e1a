/** The page's own IndexedDB database: the last list seen, and edits not yet sent, per list. */
const NAME = 'todo-page';
const VERSION = 1;
export const LAST_SEEN = 'last-seen';
export const EDITS = 'edits';
/** The index of `EDITS` by list. */
export const BY_LIST = 'by-list';

let opened: Promise<IDBDatabase> | undefined;

function open(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(NAME, VERSION);
    request.onupgradeneeded = () => {
      const database = request.result;
      database.createObjectStore(LAST_SEEN, { keyPath: 'list' });
      const edits = database.createObjectStore(EDITS, { keyPath: 'seq', autoIncrement: true });
      edits.createIndex(BY_LIST, 'list');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB would not open.'));
  });
  return opened;
}

/** What a request gives, as a promise. */
export function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('An IndexedDB request failed.'));
  });
}

/**
 * Runs `work` in one transaction on `stores`, resolving with what it gives once the
 * transaction has committed, so that a change is on disk before anyone is told of it.
 */
export async function transaction<T>(
  stores: string | string[],
  mode: IDBTransactionMode,
  work: (transaction: IDBTransaction) => Promise<T>,
): Promise<T> {
  const database = await open();
  const running = database.transaction(stores, mode);
  const done = new Promise<void>((resolve, reject) => {
    running.oncomplete = () => resolve();
    running.onabort = running.onerror = () =>
      reject(running.error ?? new Error('An IndexedDB transaction failed.'));
  });
  const value = await work(running);
  await done;
  return value;
}
