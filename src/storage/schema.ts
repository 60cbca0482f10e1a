import { eventIdOf } from '../model/events.ts';
import type { ListInfo } from '../model/resources.ts';
import { newRunId, type StoredList } from '../store/changes.ts';
import { statement, type SqlDatabase, type SqlStatement } from './sql.ts';

/** The format of the tables below. An older one `UPGRADES` names is brought to it in place. */
const FORMAT = 2;

// The Idempotency-Key of an item create, the item as made (`data`), and when (ms since 1970).
const ITEM_KEYS = `CREATE TABLE item_keys (
  list TEXT NOT NULL, sequence INTEGER NOT NULL, idempotency_key TEXT NOT NULL,
  made_at INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (list, sequence)) WITHOUT ROWID`;

/**
 * Every list, under its key (`''` for the default list and a Durable Object's one list). Titles
 * are JSON strings, which keep what SQLite's text cannot: a lone surrogate such as `"\ud800"`.
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
  ITEM_KEYS,
  // The key a list was made with, and that create's answer; it outlives the list.
  `CREATE TABLE list_keys (
     idempotency_key TEXT PRIMARY KEY, list TEXT NOT NULL, title_json TEXT NOT NULL,
     version TEXT NOT NULL) WITHOUT ROWID`,
  // The order deleted lists' keys were deleted in, the latest the highest `sequence`. The
  // highest row is never trimmed, so a new row's rowid (the highest plus one) keeps rising.
  `CREATE TABLE list_key_deletions (
     sequence INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL)`,
];

/** Each older format read, and what brings it to the next. */
const UPGRADES: Readonly<Record<number, readonly string[]>> = {
  // Format 1 kept an item's key only while its change was kept: each is now kept its window.
  1: [
    ITEM_KEYS,
    `INSERT INTO item_keys SELECT list, sequence, idempotency_key,
       CAST(strftime('%s', 'now') AS INTEGER) * 1000, data
       FROM list_change_keys JOIN list_changes USING (list, sequence)`,
    'DROP TABLE list_change_keys',
    'UPDATE storage_format SET version = 2',
  ],
};

const formatRefused = (found: string) =>
  new Error(
    `its tables are ${found}, which this version of the service does not read (it reads ` +
      `format ${FORMAT}, and upgrades ${Object.keys(UPGRADES).join(', ')}); nothing in it ` +
      'was changed. Move it aside to start with empty lists, or run the version that wrote it.',
  );

/** Whether the database holds lists in this format (false when empty); reading writes nothing. */
export function isPrepared(db: SqlDatabase): boolean {
  const tables = db.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' " +
      "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
  );
  if (tables.length === 0) return false;
  if (!tables.some(({ name }) => name === 'storage_format')) {
    throw formatRefused('of a format from before formats were numbered');
  }
  const version = formatOf(db);
  if (version !== FORMAT && UPGRADES[version] === undefined) {
    throw formatRefused(version ? `of format ${version}` : 'of no recorded format');
  }
  return true;
}

const formatOf = (db: SqlDatabase) =>
  db.all<{ version: number }>('SELECT version FROM storage_format')[0]?.version ?? 0;

/** Makes the tables in an empty database; else checks their format, upgrading an older one. */
export function prepare(db: SqlDatabase): void {
  db.transaction(() => {
    if (!isPrepared(db)) for (const statement of TABLES) db.run(statement);
    for (let format = formatOf(db); format < FORMAT; format += 1) {
      for (const statement of UPGRADES[format]!) db.run(statement);
    }
  });
}

/** A new empty list's rows under `key`, in a run of its own, and its key's if it has one. */
export function newListRows(key: string, info: ListInfo, idempotencyKey?: string): SqlStatement[] {
  const run = newRunId();
  const version = eventIdOf({ run, sequence: 0 });
  const rows = [
    statement(
      `INSERT INTO lists (list, title_json, title_version, run, sequence, items_at)
         VALUES (?, ?, ?, ?, 0, 0)`,
      ...[key, JSON.stringify(info.title), version, run],
    ),
  ];
  if (idempotencyKey !== undefined) {
    rows.push(
      statement(
        'INSERT INTO list_keys (idempotency_key, list, title_json, version) VALUES (?, ?, ?, ?)',
        ...[idempotencyKey, info.id, JSON.stringify(info.title), version],
      ),
    );
  }
  return rows;
}

export function hasListRow(db: SqlDatabase, key: string): boolean {
  return db.all('SELECT 1 FROM lists WHERE list = ?', key).length > 0;
}

/** Removes a list; its key, if any, is the latest deleted, and those past `keysKept` go. */
export function listDeletion(listId: string, keysKept: number): SqlStatement[] {
  const forgotten = `SELECT sequence FROM list_key_deletions
    WHERE sequence <= (SELECT MAX(sequence) FROM list_key_deletions) - ?`;
  return [
    statement(
      `INSERT INTO list_key_deletions (idempotency_key)
         SELECT idempotency_key FROM list_keys WHERE list = ?`,
      listId,
    ),
    statement(
      `DELETE FROM list_keys WHERE idempotency_key IN
         (SELECT idempotency_key FROM list_key_deletions WHERE sequence IN (${forgotten}))`,
      keysKept,
    ),
    statement(`DELETE FROM list_key_deletions WHERE sequence IN (${forgotten})`, keysKept),
    ...listRowsDeletion(listId),
  ];
}

/** The statements that remove a list, its items, changes and item keys; its own key stays. */
export function listRowsDeletion(listId: string): SqlStatement[] {
  return ['list_items', 'list_changes', 'item_keys', 'lists'].map((table) =>
    statement(`DELETE FROM ${table} WHERE list = ?`, listId),
  );
}

/** The keys lists were made with, and their answers: live lists' first, then deleted in order. */
export function keptListKeys(db: SqlDatabase): Map<string, StoredList> {
  return new Map(
    db
      .all<{ idempotency_key: string; list: string; title_json: string; version: string }>(
        `SELECT idempotency_key, list, title_json, version FROM list_keys
           LEFT JOIN list_key_deletions USING (idempotency_key) ORDER BY sequence`,
      )
      .map((row) => {
        const info = { id: row.list, title: JSON.parse(row.title_json) as string };
        return [row.idempotency_key, { info, version: row.version }] as const;
      }),
  );
}
