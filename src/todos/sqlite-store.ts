import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { SqlDatabase } from './sql-database.ts';
import type { SqlWrites } from './sql-writes.ts';
import { MemoryTodoStore } from './memory-store.ts';
import { ListWriter, type ItemRowsAt } from './list-writer.ts';
import { type KeptList, type StoredTodo, type TodoStore } from './store.ts';
import type { Todo } from './todo.ts';

interface ListRow {
  title_json: string;
  title_version: string;
  run: string;
  sequence: number;
  items_at: number;
}
interface TodoRow {
  id: string;
  title_json: string;
  completed: number;
  version: string;
}
interface ChangeRow {
  sequence: number;
  type: ChangeEvent['type'];
  data: string;
  idempotency_key: string | null;
}

export interface SqliteTodoStoreOptions {
  /** The list's key in the tables: its id, or `''` for the default list. */
  readonly key: string;
  /** The list's id as clients know it: `''` for the default list. */
  readonly listId: string;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  readonly reportError?: (error: unknown) => void;
  /** How the changes reach `db`: each in its own transaction, or many in one. */
  readonly writes: SqlWrites;
}

/** A list as SQLite keeps it: as its readers see it, and where its item rows stand. */
export interface KeptSqliteList extends KeptList {
  readonly itemRows: ItemRowsAt;
}

/**
 * The list kept under `key` in SQLite, with its run, its sequence, its title and its latest
 * changes, so a restart, or a Durable Object leaving memory, loses nothing acknowledged, and
 * event ids go on where they stopped. Reads come from the copy in memory, loaded here. The
 * tables must exist (`prepareSchema`), and so must the list's row.
 */
export function openSqliteTodoStore(db: SqlDatabase, options: SqliteTodoStoreOptions): TodoStore {
  return sqliteTodoStore(
    db.transaction(() => keptList(db, options)),
    options,
  );
}

/**
 * The list kept under `key`, starting as `start`: each change is written through `writes`, and
 * is committed before readers see it and it is announced.
 */
export function sqliteTodoStore(
  start: KeptSqliteList,
  options: Omit<SqliteTodoStoreOptions, 'listId'>,
): TodoStore {
  const { key, keepChanges, writes } = options;
  const writer = new ListWriter(writes, key, keepChanges, start.itemRows);
  return new MemoryTodoStore({
    keepChanges,
    reportError: options.reportError,
    start,
    persist: (change, sequence, done) => writer.persist(change, sequence, done),
  });
}

/**
 * The list as its item rows hold it, at `items_at`, with the changes after that replayed over
 * them, and its latest `keepChanges` changes for clients that resume.
 */
function keptList(
  db: SqlDatabase,
  { key, listId, keepChanges }: SqliteTodoStoreOptions,
): KeptSqliteList {
  const row = db.all<ListRow>(
    'SELECT title_json, title_version, run, sequence, items_at FROM lists WHERE list = ?',
    key,
  )[0];
  if (row === undefined) throw new Error(`No list is kept under the key ${JSON.stringify(key)}.`);
  const { run, sequence, items_at: itemsAt } = row;
  const items = new Map<string, StoredTodo>();
  for (const { id, title_json, completed, version } of db.all<TodoRow>(
    'SELECT id, title_json, completed, version FROM list_items WHERE list = ? ORDER BY rowid',
    key,
  )) {
    items.set(id, {
      todo: { id, title: JSON.parse(title_json) as string, completed: completed === 1 },
      version,
    });
  }
  const rows = db.all<ChangeRow>(
    `SELECT sequence, type, data, idempotency_key FROM list_changes
       LEFT JOIN list_change_keys USING (list, sequence)
       WHERE list = ? AND sequence > ? ORDER BY sequence`,
    key,
    Math.min(itemsAt, sequence - keepChanges),
  );
  // Parsed once: the changes after the item rows and those kept for clients are mostly the same.
  const parsed = rows.map((change) => ({
    sequence: change.sequence,
    change: changeOf(run, change),
  }));
  const after = parsed.filter((kept) => kept.sequence > itemsAt).map((kept) => kept.change);
  if (after.length !== sequence - itemsAt) {
    throw new Error(
      `The list kept under the key ${JSON.stringify(key)} lacks changes its items need: ` +
        `${sequence - itemsAt} after ${itemsAt}, ${after.length} found. The storage was changed ` +
        'by something other than this service.',
    );
  }
  for (const change of after) {
    // Map.set keeps an item's place: a replace stays where the item was made.
    if (change.type === 'deleted') items.delete(change.todo.id);
    else if (change.type !== 'list-renamed') {
      items.set(change.todo.id, { todo: change.todo, version: change.id });
    }
  }
  const changes = unbrokenUpTo(
    sequence,
    parsed.filter((kept) => kept.sequence > sequence - keepChanges),
  ).map((kept) => kept.change);
  const baseId = eventIdOf({ run, sequence: sequence - changes.length });
  const info: ListInfo = { id: listId, title: JSON.parse(row.title_json) as string };
  return {
    run,
    sequence,
    list: { list: info, version: row.title_version },
    items: [...items.values()],
    history: { baseId, changes },
    itemRows: { sequence: itemsAt, after },
  };
}

function changeOf(run: string, row: ChangeRow): ChangeEvent {
  const { type, data, idempotency_key: idempotencyKey } = row;
  const id = eventIdOf({ run, sequence: row.sequence });
  if (type === 'list-renamed') return { type, id, list: JSON.parse(data) as ListInfo };
  const todo = JSON.parse(data) as Todo;
  return idempotencyKey === null ? { type, id, todo } : { type, id, todo, idempotencyKey };
}

/**
 * The rows, oldest first, that lead without a gap up to `sequence`. A file written before item
 * changes were folded kept no changes in a run with `sse.replayEvents` at 0, so rows from
 * before that run would skip its changes: replaying them would hand a client a list with
 * changes missing.
 */
function unbrokenUpTo<Row extends { readonly sequence: number }>(
  sequence: number,
  rows: readonly Row[],
): readonly Row[] {
  let first = rows.length;
  while (first > 0 && rows[first - 1]!.sequence === sequence - (rows.length - first)) first -= 1;
  return rows.slice(first);
}
