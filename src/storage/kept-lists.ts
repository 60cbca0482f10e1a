import { eventIdOf } from '../model/events.ts';
import type { ListInfo, Todo } from '../model/resources.ts';
import type { Change, KeptList, ListStoreOptions, StoredTodo } from '../store/changes.ts';
import type { StoredList } from '../store/changes.ts';
import { ListStore } from '../store/list-store.ts';
import { ListWriter } from './list-writer.ts';
import { hasListRow, keptListKeys, listDeletion, newListRows, prepare } from './schema.ts';
import { writeAll, runStatements, type SqlDatabase, type SqlWrites } from './sql.ts';

export type StoreOptions = Pick<ListStoreOptions, 'keepChanges' | 'keys' | 'reportError'>;

/** Where a process's lists are kept: in memory only, or in durable storage as well. */
export interface ListStores {
  openDefault(options: StoreOptions): ListStore;
  /** The named lists kept from an earlier run, in no order. */
  openKept(options: StoreOptions): ListStore[];
  /** A new list's store, once the list is durable, and with `idempotencyKey` its key too. */
  create(info: ListInfo, options: StoreOptions, idempotencyKey?: string): Promise<ListStore>;
  /** Each key a list was made with, and that create's answer, the deleted lists' in order. */
  keptKeys(): Iterable<readonly [string, StoredList]>;
  /** Once the list is gone from storage; its key is kept for `deletedKeysKept` deletions. */
  remove(listId: string, deletedKeysKept: number): Promise<void>;
}

/** Every list in one SQLite database; every write goes through `writes`, so in order. */
export function sqliteListStores(db: SqlDatabase, writes: SqlWrites): ListStores {
  prepare(db);
  return {
    openDefault: (options) => openListStore(db, writes, '', '', options),
    openKept: (options) =>
      db
        .all<{ list: string }>("SELECT list FROM lists WHERE list != ''")
        .map(({ list }) => openListStore(db, writes, list, list, options)),
    create: async (info, options, idempotencyKey) => {
      await writeAll(writes, newListRows(info.id, info, idempotencyKey));
      return openListStore(db, writes, info.id, info.id, options);
    },
    remove: (listId, deletedKeysKept) => writeAll(writes, listDeletion(listId, deletedKeysKept)),
    keptKeys: () => keptListKeys(db),
  };
}

/** The list kept under `key`, its id `listId`; its row is added, empty, if it has none. */
export function openListStore(
  db: SqlDatabase,
  writes: SqlWrites,
  key: string,
  listId: string,
  options: StoreOptions,
): ListStore {
  const { start, itemRows } = db.transaction(() => {
    if (!hasListRow(db, key)) runStatements(db, newListRows(key, { id: listId, title: '' }));
    // Keys past their window go when their list opens, as well as at each fold.
    const windowStart = Date.now() - options.keys.windowMs;
    db.run('DELETE FROM item_keys WHERE list = ? AND made_at <= ?', key, windowStart);
    return readKeptList(db, key, listId, options.keepChanges);
  });
  const writer = new ListWriter(writes, key, options, itemRows);
  return new ListStore({ ...options, start, persist: writer.persist.bind(writer) });
}

type ChangeRow = { sequence: number; type: Change['type']; data: string };

/** The list as its item rows hold it, the changes after them replayed, its latest changes. */
function readKeptList(db: SqlDatabase, key: string, listId: string, keepChanges: number) {
  type ListRow = { title_json: string; title_version: string; run: string; sequence: number };
  const [row] = db.all<ListRow & { items_at: number }>(
    'SELECT title_json, title_version, run, sequence, items_at FROM lists WHERE list = ?',
    key,
  );
  const { run, sequence, items_at: itemsAt } = row!;
  const items = new Map<string, StoredTodo>();
  const itemRows = db.all<{ id: string; title_json: string; completed: number; version: string }>(
    'SELECT id, title_json, completed, version FROM list_items WHERE list = ? ORDER BY rowid',
    key,
  );
  for (const { id, title_json, completed, version } of itemRows) {
    const todo: Todo = { id, title: JSON.parse(title_json) as string, completed: completed === 1 };
    items.set(id, { todo, version, json: JSON.stringify(todo) });
  }
  const changes = db
    .all<ChangeRow>(
      'SELECT sequence, type, data FROM list_changes WHERE list = ? AND sequence > ? ORDER BY sequence',
      ...[key, Math.min(itemsAt, sequence - keepChanges)],
    )
    .map((change) => ({ sequence: change.sequence, change: changeOf(run, change) }));
  const after = changes.filter((kept) => kept.sequence > itemsAt).map((kept) => kept.change);
  if (after.length !== sequence - itemsAt) {
    throw new Error(
      `The ${key === '' ? 'default list' : `list ${key}`} in storage lacks changes its items need: ` +
        `${sequence - itemsAt} after ${itemsAt}, ${after.length} found. The storage was changed ` +
        'by something other than this service.',
    );
  }
  for (const change of after) {
    // Map.set keeps an item's place: a replace stays where the item was made.
    if (change.type === 'deleted') items.delete(change.item.todo.id);
    else if (change.type !== 'list-renamed') items.set(change.item.todo.id, change.item);
  }
  const recent = changes.filter((kept) => kept.sequence > sequence - keepChanges);
  const info = { id: listId, title: JSON.parse(row!.title_json) as string };
  const start: KeptList = {
    run,
    sequence,
    resource: { info, version: row!.title_version },
    items: [...items.values()],
    changes: recent.map((kept) => kept.change),
    keys: db
      .all<{ idempotency_key: string; sequence: number; made_at: number; data: string }>(
        'SELECT idempotency_key, sequence, made_at, data FROM item_keys WHERE list = ? ORDER BY sequence',
        key,
      )
      .map((kept) => ({
        key: kept.idempotency_key,
        item: itemOf(kept.data, eventIdOf({ run, sequence: kept.sequence })),
        at: kept.made_at,
      })),
  };
  return { start, itemRows: { sequence: itemsAt, after } };
}

/** A kept change; a deleted item's version is not kept, and the change's own id stands for it. */
function changeOf(run: string, { type, data, sequence }: ChangeRow): Change {
  const id = eventIdOf({ run, sequence });
  if (type === 'list-renamed') {
    return { type, id, list: { info: JSON.parse(data) as ListInfo, version: id } };
  }
  return { type, id, item: itemOf(data, id) };
}

function itemOf(json: string, version: string): StoredTodo {
  return { todo: JSON.parse(json) as Todo, version, json };
}
