import type { ChangeEvent, TodoChange } from '../live/events.ts';
import { statement, type SqlStatement } from './sql-statements.ts';

const SHARED_STORAGE =
  'The stored list was changed by another service since this one started: another service ' +
  'keeps its lists in the same storage. Run one service per storage file, and restart this ' +
  'one to load the lists as they are now.';

/**
 * The statement that moves a list's sequence over the changes of one batch, with `moveTo` to
 * take in each change after the first.
 */
export interface SequenceMove {
  readonly statements: readonly SqlStatement[];
  moveTo(sequence: number): void;
}

/**
 * Moves the sequence from the one before `sequence` to `sequence`, the batch's first change of
 * the list, and on to each later one's as `moveTo` says.
 */
export function sequenceMove(key: string, sequence: number): SequenceMove {
  const moved: [number, string, number] = [sequence, key, sequence - 1];
  return {
    // If the sequence has moved already, another service has the same storage open and holds a
    // different list in memory: writing would make the two lists part ways, so the write fails.
    statements: [
      {
        sql: 'UPDATE lists SET sequence = ? WHERE list = ? AND sequence = ? RETURNING sequence',
        params: moved,
        orFail: SHARED_STORAGE,
      },
    ],
    moveTo(next) {
      moved[0] = next;
    },
  };
}

/**
 * The rows of one change: the change itself, which is what an item's change writes until it is
 * folded into the item rows (`foldRows`), and a rename's new title, written at once. The
 * `Idempotency-Key` of a create is kept while the change is among the kept ones.
 */
export function changeRows(
  key: string,
  change: ChangeEvent,
  sequence: number,
  keepChanges: number,
): SqlStatement[] {
  const data = JSON.stringify(change.type === 'list-renamed' ? change.list : change.todo);
  const rows = [
    statement(
      'INSERT INTO list_changes (list, sequence, type, data) VALUES (?, ?, ?, ?)',
      key,
      sequence,
      change.type,
      data,
    ),
  ];
  if (change.type === 'list-renamed') {
    rows.push(
      statement(
        'UPDATE lists SET title_json = ?, title_version = ? WHERE list = ?',
        JSON.stringify(change.list.title),
        change.id,
        key,
      ),
    );
  } else if (keepChanges > 0 && change.type === 'created' && change.idempotencyKey !== undefined) {
    rows.push(
      statement(
        'INSERT INTO list_change_keys (list, sequence, idempotency_key) VALUES (?, ?, ?)',
        key,
        sequence,
        change.idempotencyKey,
      ),
    );
  }
  return rows;
}

/**
 * The statements that bring the item rows from where `changes` start to `through`, the
 * sequence of the last of them: each item written once, as its last change left it, and not at
 * all if it was made and deleted among them. New items are added in the order they were made,
 * which is the order of the rows. The kept changes are trimmed here too, to the latest
 * `keepChanges`: a change not yet folded is the only record of what it did, and trimming once
 * a fold, not once a commit, spares each commit the deletes.
 */
export function foldRows(
  key: string,
  changes: readonly ChangeEvent[],
  through: number,
  keepChanges: number,
): SqlStatement[] {
  const touched = new Map<string, { readonly first: TodoChange; last: TodoChange }>();
  for (const change of changes) {
    if (change.type === 'list-renamed') continue;
    const seen = touched.get(change.todo.id);
    if (seen === undefined) touched.set(change.todo.id, { first: change, last: change });
    else seen.last = change;
  }
  const rows: SqlStatement[] = [];
  for (const { first, last } of touched.values()) {
    // An item first made among these changes has no row yet.
    const made = first.type === 'created';
    if (last.type === 'deleted') {
      if (!made)
        rows.push(statement('DELETE FROM list_items WHERE list = ? AND id = ?', key, last.todo.id));
    } else {
      rows.push(made ? itemInsert(key, last) : itemUpdate(key, last));
    }
  }
  rows.push(statement('UPDATE lists SET items_at = ? WHERE list = ?', through, key));
  for (const table of ['list_changes', 'list_change_keys']) {
    rows.push(
      statement(
        `DELETE FROM ${table} WHERE list = ? AND sequence <= ?`,
        key,
        through - keepChanges,
      ),
    );
  }
  return rows;
}

function itemInsert(key: string, { todo, id: version }: TodoChange): SqlStatement {
  return statement(
    'INSERT INTO list_items (list, id, title_json, completed, version) VALUES (?, ?, ?, ?, ?)',
    key,
    todo.id,
    JSON.stringify(todo.title),
    todo.completed ? 1 : 0,
    version,
  );
}

function itemUpdate(key: string, { todo, id: version }: TodoChange): SqlStatement {
  return statement(
    'UPDATE list_items SET title_json = ?, completed = ?, version = ? WHERE list = ? AND id = ?',
    JSON.stringify(todo.title),
    todo.completed ? 1 : 0,
    version,
    key,
    todo.id,
  );
}
