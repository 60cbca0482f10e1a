import type { SqlDatabase } from './sql.ts';

/** The format of the tables below: a database in any other is refused whole, never migrated. */
const FORMAT = 1;

/**
 * Every list in one database, under its key (`''` for the default list and for a Durable
 * Object's one list). Titles are kept as JSON strings, as the changes' data is: JSON holds what
 * SQLite's UTF-8 text cannot, a lone surrogate such as `"\ud800"` (text gives back U+FFFD).
 */
const TABLES = [
  'CREATE TABLE storage_format (version INTEGER NOT NULL)',
  `INSERT INTO storage_format VALUES (${FORMAT})`,
  // `items_at`: the sequence the item rows hold; the changes after it are folded in later.
  `CREATE TABLE lists (
     list TEXT PRIMARY KEY, title_json TEXT NOT NULL, title_version TEXT NOT NULL,
     run TEXT NOT NULL, sequence INTEGER NOT NULL, items_at INTEGER NOT NULL)`,
  // The rowid keeps creation order; a replace updates the row in place, so its place too.
  `CREATE TABLE list_items (
     list TEXT NOT NULL, id TEXT NOT NULL, title_json TEXT NOT NULL, completed INTEGER NOT NULL,
     version TEXT NOT NULL, UNIQUE (list, id))`,
  // Reading a list's items by this index gives them in rowid order, with no sort.
  'CREATE INDEX list_items_in_order ON list_items (list)',
  `CREATE TABLE list_changes (
     list TEXT NOT NULL, sequence INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (list, sequence)) WITHOUT ROWID`,
  // The Idempotency-Key of a kept change that was a create sent with one.
  `CREATE TABLE list_change_keys (
     list TEXT NOT NULL, sequence INTEGER NOT NULL, idempotency_key TEXT NOT NULL,
     PRIMARY KEY (list, sequence)) WITHOUT ROWID`,
  // The key a list was made with, and that create's answer (`list-rows.ts`).
  `CREATE TABLE list_keys (
     idempotency_key TEXT PRIMARY KEY, list TEXT NOT NULL, title_json TEXT NOT NULL,
     version TEXT NOT NULL) WITHOUT ROWID`,
  // The order deleted lists' keys were deleted in, the latest the highest `sequence`. The
  // highest row is never trimmed, so a new row's rowid (the highest plus one) keeps rising.
  `CREATE TABLE list_key_deletions (
     sequence INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL)`,
];

class StorageFormatError extends Error {
  constructor(found: string) {
    super(
      `its tables are ${found}, which this version of the service does not read (it reads ` +
        `format ${FORMAT}); nothing in it was changed. Move it aside to start with empty ` +
        'lists, or run the version that wrote it.',
    );
    this.name = 'StorageFormatError';
  }
}

/** Whether the database holds lists in this format (false when empty); reading writes nothing. */
export function isPrepared(db: SqlDatabase): boolean {
  const tables = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' " +
      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
  );
  if (tables.length === 0) return false;
  if (!tables.some(({ name }) => name === 'storage_format')) {
    throw new StorageFormatError('of a format from before formats were numbered');
  }
  const [row] = db.all<{ version: number }>('SELECT version FROM storage_format');
  if (row?.version !== FORMAT) throw new StorageFormatError(`of format ${row?.version}`);
  return true;
}

/** Makes the tables in an empty database; checks their format in one that has them. */
export function prepare(db: SqlDatabase): void {
  db.transaction(() => {
    if (!isPrepared(db)) for (const statement of TABLES) db.run(statement);
  });
}
