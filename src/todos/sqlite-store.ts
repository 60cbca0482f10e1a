import { eventIdOf, type ChangeEvent } from '../live/events.ts';
import type { SqlDatabase } from './sql-database.ts';
import { MemoryTodoStore, type StoredList, type TodoStore } from './store.ts';
import type { Todo } from './todo.ts';

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS list_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
  // The rowid keeps creation order; a replace updates the row in place, so its place too.
  `CREATE TABLE IF NOT EXISTS todos (
     id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, completed INTEGER NOT NULL, version TEXT NOT NULL)`,
  'CREATE TABLE IF NOT EXISTS changes (sequence INTEGER PRIMARY KEY, type TEXT NOT NULL, todo TEXT NOT NULL)',
];

const SHARED_STORAGE =
  'The stored list was changed by another service since this one started: another service ' +
  'keeps its list in the same storage. Run one service per storage file, and restart this ' +
  'one to load the list as it is now.';

interface TodoRow {
  id: string;
  title: string;
  completed: number;
  version: string;
}
interface ChangeRow {
  sequence: number;
  type: ChangeEvent['type'];
  todo: string;
}

export interface SqliteTodoStoreOptions {
  /** How many of the latest changes to keep for clients that resume (`sse.replayEvents`). */
  readonly keepChanges: number;
  readonly reportError?: (error: unknown) => void;
}

/**
 * The list kept in SQLite with its run id, its sequence and its latest changes, so a restart,
 * or a Durable Object leaving memory, loses nothing acknowledged, and event ids go on where
 * they stopped. Reads come from the copy in memory, loaded at start; each change is committed
 * in one transaction before the copy changes and the change is announced.
 */
export function openSqliteTodoStore(db: SqlDatabase, options: SqliteTodoStoreOptions): TodoStore {
  const { keepChanges } = options;
  db.transaction(() => SCHEMA.forEach((statement) => db.run(statement)));
  return new MemoryTodoStore({
    reportError: options.reportError,
    start: db.transaction(() => storedList(db, keepChanges)),
    persist: (change, sequence) => db.transaction(() => write(db, change, sequence, keepChanges)),
  });
}

function storedList(db: SqlDatabase, keepChanges: number): StoredList {
  let run = stateOf(db, 'run');
  if (run === undefined) {
    run = crypto.randomUUID().slice(0, 8);
    setState(db, 'run', run);
  }
  const stored = stateOf(db, 'sequence');
  if (stored === undefined) setState(db, 'sequence', '0');
  const sequence = Number(stored ?? 0);
  const items = db
    .all<TodoRow>('SELECT id, title, completed, version FROM todos ORDER BY rowid')
    .map(({ id, title, completed, version }) => ({
      todo: { id, title, completed: completed === 1 },
      version,
    }));
  const changes = unbrokenUpTo(
    sequence,
    db.all<ChangeRow>(
      'SELECT sequence, type, todo FROM changes WHERE sequence > ? ORDER BY sequence',
      sequence - keepChanges,
    ),
  ).map((row) => ({
    type: row.type,
    id: eventIdOf({ run, sequence: row.sequence }),
    todo: JSON.parse(row.todo) as Todo,
  }));
  const baseId = eventIdOf({ run, sequence: sequence - changes.length });
  return { run, sequence, items, history: { baseId, changes } };
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

function write(db: SqlDatabase, change: ChangeEvent, sequence: number, keepChanges: number) {
  const { type, todo, id: version } = change;
  // Each write moves the sequence on from the one this store last wrote. If it has moved
  // already, another service has the same storage open and holds a different list in memory:
  // writing would make the two lists part ways, so the write fails instead.
  const moved = db.all(
    "UPDATE list_state SET value = ? WHERE key = 'sequence' AND value = ? RETURNING value",
    String(sequence),
    String(sequence - 1),
  );
  if (moved.length === 0) throw new Error(SHARED_STORAGE);
  if (type === 'created') {
    db.run(
      'INSERT INTO todos (id, title, completed, version) VALUES (?, ?, ?, ?)',
      todo.id,
      todo.title,
      todo.completed ? 1 : 0,
      version,
    );
  } else if (type === 'updated') {
    db.run(
      'UPDATE todos SET title = ?, completed = ?, version = ? WHERE id = ?',
      todo.title,
      todo.completed ? 1 : 0,
      version,
      todo.id,
    );
  } else {
    db.run('DELETE FROM todos WHERE id = ?', todo.id);
  }
  if (keepChanges === 0) return;
  db.run(
    'INSERT INTO changes (sequence, type, todo) VALUES (?, ?, ?)',
    sequence,
    type,
    JSON.stringify(todo),
  );
  db.run('DELETE FROM changes WHERE sequence <= ?', sequence - keepChanges);
}

function stateOf(db: SqlDatabase, key: string): string | undefined {
  return db.all<{ value: string }>('SELECT value FROM list_state WHERE key = ?', key)[0]?.value;
}

function setState(db: SqlDatabase, key: string, value: string): void {
  db.run(
    'INSERT INTO list_state (key, value) VALUES (?, ?) ' +
      'ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    key,
    value,
  );
}
