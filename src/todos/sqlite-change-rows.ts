import type { ChangeEvent, TodoChange } from '../live/events.ts';
import { statement, type SqlStatement } from './sql-statements.ts';

const SHARED_STORAGE =
  'The stored list was changed by another service since this one started: another service ' +
  'keeps its lists in the same storage. Run one service per storage file, and restart this ' +
  'one to load the lists as they are now.';

/**
 * The statements that move a list's sequence over the changes of one batch, and trim its kept
 * changes to the latest `keepChanges`, with `moveTo` to take in each change after the first.
 */
export interface SequenceMove {
  readonly statements: readonly SqlStatement[];
  moveTo(sequence: number): void;
}

/**
 * Moves the sequence from the one before `sequence` to `sequence`, the batch's first change of
 * the list, and on to each later one's as `moveTo` says. The statements come before the rows
 * of the changes: the trim then only ever deletes rows from before the batch, and when a batch
 * holds more than `keepChanges` changes of the list, its own oldest stay until the next.
 */
export function sequenceMove(key: string, sequence: number, keepChanges: number): SequenceMove {
  const moved: [number, string, number] = [sequence, key, sequence - 1];
  const trimmed: [string, number] = [key, sequence - keepChanges];
  const statements: SqlStatement[] = [
    // If the sequence has moved already, another service has the same storage open and holds a
    // different list in memory: writing would make the two lists part ways, so the write fails.
    {
      sql: 'UPDATE lists SET sequence = ? WHERE list = ? AND sequence = ? RETURNING sequence',
      params: moved,
      orFail: SHARED_STORAGE,
    },
  ];
  if (keepChanges > 0) {
    for (const table of ['list_changes', 'list_change_keys']) {
      statements.push({
        sql: `DELETE FROM ${table} WHERE list = ? AND sequence <= ?`,
        params: trimmed,
      });
    }
  }
  return {
    statements,
    moveTo(next) {
      moved[0] = next;
      trimmed[1] = next - keepChanges;
    },
  };
}

/** The rows of one change: its item or title, and the change among the kept ones. */
export function changeRows(
  key: string,
  change: ChangeEvent,
  sequence: number,
  keepChanges: number,
): SqlStatement[] {
  const row = rowOf(key, change);
  if (keepChanges === 0) return [row];
  const data = JSON.stringify(change.type === 'list-renamed' ? change.list : change.todo);
  const rows = [
    row,
    statement(
      'INSERT INTO list_changes (list, sequence, type, data) VALUES (?, ?, ?, ?)',
      key,
      sequence,
      change.type,
      data,
    ),
  ];
  if (change.type === 'created' && change.idempotencyKey !== undefined) {
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

/** The statement that makes `change` in the list's title or items. */
function rowOf(key: string, change: ChangeEvent): SqlStatement {
  if (change.type === 'list-renamed') {
    return statement(
      'UPDATE lists SET title_json = ?, title_version = ? WHERE list = ?',
      JSON.stringify(change.list.title),
      change.id,
      key,
    );
  }
  return itemRowOf(key, change);
}

function itemRowOf(key: string, { type, todo, id: version }: TodoChange): SqlStatement {
  if (type === 'created') {
    return statement(
      'INSERT INTO list_items (list, id, title_json, completed, version) VALUES (?, ?, ?, ?, ?)',
      key,
      todo.id,
      JSON.stringify(todo.title),
      todo.completed ? 1 : 0,
      version,
    );
  }
  if (type === 'updated') {
    return statement(
      'UPDATE list_items SET title_json = ?, completed = ?, version = ? WHERE list = ? AND id = ?',
      JSON.stringify(todo.title),
      todo.completed ? 1 : 0,
      version,
      key,
      todo.id,
    );
  }
  return statement('DELETE FROM list_items WHERE list = ? AND id = ?', key, todo.id);
}
