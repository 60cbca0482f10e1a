import type { SqlDatabase } from './sql-database.ts';

const ITEMS_AT = 'items_at INTEGER NOT NULL DEFAULT 0';

/**
 * Every list in one database: a row of `lists` each, its items and its latest changes beside
 * it. The default list's key is `''`; a Durable Object holds one list, under that same key.
 *
 * Titles are kept as JSON strings (`title_json`), as the changes' data is: a title is stored
 * exactly as sent, and a JSON string may hold what SQLite's UTF-8 text cannot, a lone surrogate
 * such as `"\ud800"`, which as text would come back as U+FFFD.
 */
const TABLES = [
  // `items_at`: the sequence the item rows hold; the changes after it are folded in later.
  `CREATE TABLE IF NOT EXISTS lists (
     list TEXT PRIMARY KEY, title_json TEXT NOT NULL, title_version TEXT NOT NULL,
     run TEXT NOT NULL, sequence INTEGER NOT NULL, ${ITEMS_AT})`,
  // The rowid keeps creation order; a replace updates the row in place, so its place too.
  `CREATE TABLE IF NOT EXISTS list_items (
     list TEXT NOT NULL, id TEXT NOT NULL, title_json TEXT NOT NULL, completed INTEGER NOT NULL,
     version TEXT NOT NULL, UNIQUE (list, id))`,
  // Reading a list's items by this index gives them in rowid order, with no sort.
  'CREATE INDEX IF NOT EXISTS list_items_in_order ON list_items (list)',
  `CREATE TABLE IF NOT EXISTS list_changes (
     list TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (list, sequence)) WITHOUT ROWID`,
  // The Idempotency-Key of a kept change that was a create sent with one, kept and trimmed
  // with the change: a table of its own, so that a database from before it needs no change.
  `CREATE TABLE IF NOT EXISTS list_change_keys (
     list TEXT NOT NULL, sequence INTEGER NOT NULL, idempotency_key TEXT NOT NULL,
     PRIMARY KEY (list, sequence)) WITHOUT ROWID`,
  // The key a list was made with, and that create's answer (`sqlite-list-keys.ts`).
  `CREATE TABLE IF NOT EXISTS list_keys (
     idempotency_key TEXT PRIMARY KEY, list TEXT NOT NULL, title_json TEXT NOT NULL,
     version TEXT NOT NULL) WITHOUT ROWID`,
];

/**
 * The tables a database held when the service had one list, moved into the tables above as the
 * default list, its run and sequence kept, so event ids and ETags go on where they stopped.
 */
const FROM_ONE_LIST = [
  `INSERT INTO lists (list, title_json, title_version, run, sequence, items_at)
     SELECT '', '""', run.value || '.0', run.value, CAST(sequence.value AS INTEGER),
       CAST(sequence.value AS INTEGER)
     FROM list_state AS run, list_state AS sequence
     WHERE run.key = 'run' AND sequence.key = 'sequence'`,
  `INSERT INTO list_items (list, id, title_json, completed, version)
     SELECT '', id, json_quote(title), completed, version FROM todos ORDER BY rowid`,
  `INSERT INTO list_changes (list, sequence, type, data)
     SELECT '', sequence, type, todo FROM changes`,
  'DROP TABLE todos',
  'DROP TABLE changes',
  'DROP TABLE list_state',
];

/** A `lists` table from before its item rows could lag behind its changes: they never did. */
const TO_ITEMS_AT = [
  `ALTER TABLE lists ADD COLUMN ${ITEMS_AT}`,
  'UPDATE lists SET items_at = sequence',
];

/**
 * Makes the tables that are missing, gives an older `lists` table its `items_at`, and moves a
 * database of one list into the tables.
 */
export function prepareSchema(db: SqlDatabase): void {
  db.transaction(() => {
    for (const statement of TABLES) db.run(statement);
    if (!tableHasColumn(db, 'lists', 'items_at'))
      for (const statement of TO_ITEMS_AT) db.run(statement);
    if (hasTable(db, 'list_state')) for (const statement of FROM_ONE_LIST) db.run(statement);
  });
}

/** Whether the table `name` was made, or altered, with a column `column`. */
function tableHasColumn(db: SqlDatabase, name: string, column: string): boolean {
  const [table] = db.all<{ sql: string }>(
    "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
    name,
  );
  return table !== undefined && new RegExp(`\\b${column}\\b`).test(table.sql);
}

/** Whether the database holds a table named `name`; reading it creates nothing. */
export function hasTable(db: SqlDatabase, name: string): boolean {
  return db.all("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).length > 0;
}
