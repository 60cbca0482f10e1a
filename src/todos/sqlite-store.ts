import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import type { ListInfo } from '../lists/list-info.ts';
import type { SqlDatabase } from './sql-database.ts';
import { MemoryTodoStore } from './memory-store.ts';
import { type KeptList, type TodoStore } from './store.ts';
import type { Todo } from './todo.ts';

const SHARED_STORAGE =
  'The stored list was changed by another service since this one started: another service ' +
  'keeps its lists in the same storage. Run one service per storage file, and restart this ' +
  'one to load the lists as they are now.';

interface ListRow {
  title_json: string;
  title_version: string;
  run: string;
  sequence: number;
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
}

export interface SqliteTodoStoreOptions {
  /** The list's key in the tables: its id, or `''` for the default list. */
  readonly key: string;
  /** The list's id as clients know it: `''` for the default list. */
  readonly listId: string;
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  readonly reportError?: (error: unknown) => void;
}

/**
 * The list kept under `key` in SQLite, with its run, its sequence, its title and its latest
 * changes, so a restart, or a Durable Object leaving memory, loses nothing acknowledged, and
 * event ids go on where they stopped. Reads come from the copy in memory, loaded here; each
 * change is committed in one transaction before the copy changes and the change is announced.
 * The tables must exist (`prepareSchema`), and so must the list's row.
 */
export function openSqliteTodoStore(db: SqlDatabase, options: SqliteTodoStoreOptions): TodoStore {
  const { key, keepChanges } = options;
  return new MemoryTodoStore({
    keepChanges,
    reportError: options.reportError,
    start: db.transaction(() => keptList(db, options)),
    persist: (change, sequence) =>
      db.transaction(() => write(db, key, change, sequence, keepChanges)),
  });
}

function keptList(db: SqlDatabase, { key, listId, keepChanges }: SqliteTodoStoreOptions): KeptList {
  const row = db.all<ListRow>(
    'SELECT title_json, title_version, run, sequence FROM lists WHERE list = ?',
    key,
  )[0];
  if (row === undefined) throw new Error(`No list is kept under the key ${JSON.stringify(key)}.`);
  const { run, sequence } = row;
  const items = db
    .all<TodoRow>(
      'SELECT id, title_json, completed, version FROM list_items WHERE list = ? ORDER BY rowid',
      key,
    )
    .map(({ id, title_json, completed, version }) => ({
      todo: { id, title: JSON.parse(title_json) as string, completed: completed === 1 },
      version,
    }));
  const changes = unbrokenUpTo(
    sequence,
    db.all<ChangeRow>(
      'SELECT sequence, type, data FROM list_changes WHERE list = ? AND sequence > ? ORDER BY sequence',
      key,
      sequence - keepChanges,
    ),
  ).map((change) => changeOf(run, change));
  const baseId = eventIdOf({ run, sequence: sequence - changes.length });
  const info: ListInfo = { id: listId, title: JSON.parse(row.title_json) as string };
  return {
    run,
    sequence,
    list: { list: info, version: row.title_version },
    items,
    history: { baseId, changes },
  };
}

function changeOf(run: string, { sequence, type, data }: ChangeRow): ChangeEvent {
  const id = eventIdOf({ run, sequence });
  if (type === 'list-renamed') return { type, id, list: JSON.parse(data) as ListInfo };
  return { type, id, todo: JSON.parse(data) as Todo };
}

/**
 * The rows, oldest first, that lead without a gap up to `sequence`. A run with
 * `sse.replayEvents` at 0 stores no changes, so rows from before it would skip its changes:
 * replaying them would hand a client a list with changes missing.
 */
function unbrokenUpTo(sequence: number, rows: readonly ChangeRow[]): readonly ChangeRow[] {
  let first = rows.length;
  while (first > 0 && rows[first - 1]!.sequence === sequence - (rows.length - first)) first -= 1;
  return rows.slice(first);
}

function write(
  db: SqlDatabase,
  key: string,
  change: ChangeEvent,
  sequence: number,
  keepChanges: number,
) {
  // Each write moves the sequence on from the one this store last wrote. If it has moved
  // already, another service has the same storage open and holds a different list in memory:
  // writing would make the two lists part ways, so the write fails instead.
  const moved = db.all(
    'UPDATE lists SET sequence = ? WHERE list = ? AND sequence = ? RETURNING sequence',
    sequence,
    key,
    sequence - 1,
  );
  if (moved.length === 0) throw new Error(SHARED_STORAGE);
  let data: string;
  if (change.type === 'list-renamed') {
    db.run(
      'UPDATE lists SET title_json = ?, title_version = ? WHERE list = ?',
      JSON.stringify(change.list.title),
      change.id,
      key,
    );
    data = JSON.stringify(change.list);
  } else {
    writeItem(db, key, change);
    data = JSON.stringify(change.todo);
  }
  if (keepChanges === 0) return;
  db.run(
    'INSERT INTO list_changes (list, sequence, type, data) VALUES (?, ?, ?, ?)',
    key,
    sequence,
    change.type,
    data,
  );
  db.run('DELETE FROM list_changes WHERE list = ? AND sequence <= ?', key, sequence - keepChanges);
}

function writeItem(
  db: SqlDatabase,
  key: string,
  { type, todo, id: version }: Extract<ChangeEvent, { todo: Todo }>,
) {
  if (type === 'created') {
    db.run(
      'INSERT INTO list_items (list, id, title_json, completed, version) VALUES (?, ?, ?, ?, ?)',
      key,
      todo.id,
      JSON.stringify(todo.title),
      todo.completed ? 1 : 0,
      version,
    );
  } else if (type === 'updated') {
    db.run(
      'UPDATE list_items SET title_json = ?, completed = ?, version = ? WHERE list = ? AND id = ?',
      JSON.stringify(todo.title),
      todo.completed ? 1 : 0,
      version,
      key,
      todo.id,
    );
  } else {
    db.run('DELETE FROM list_items WHERE list = ? AND id = ?', key, todo.id);
  }
}
