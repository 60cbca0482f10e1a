import type { Change, ItemChange, ListStoreOptions } from '../store/changes.ts';
import { statement, type SqlStatement, type SqlWrites } from './sql.ts';
import type { Transaction, WriteDone } from './sql.ts';

/** Changes are written alone, one row without an index's, until this many fold into items. */
export const FOLD_EVERY = 1024;

const SHARED_STORAGE =
  'The stored list was changed by another service since this one started: another service ' +
  'keeps its lists in the same storage. Run one service per storage file, and restart this ' +
  'one to load the lists as they are now.';

/** Where a list's item rows stand: the sequence they hold, and the changes after it, in order. */
export interface ItemRowsAt {
  readonly sequence: number;
  readonly after: readonly Change[];
}

type WriterBounds = Pick<ListStoreOptions, 'keepChanges' | 'keys'>;

/**
 * One list's changes on their way to SQLite; a transaction's move the sequence with one statement.
 * A fold trims the kept changes only as it folds them: an unfolded change is all that records it.
 * Item keys are trimmed at folds too, so a list's key rows stay within `keys.most` + `FOLD_EVERY`.
 */
export class ListWriter {
  readonly #writes: SqlWrites;
  readonly #listKey: string;
  readonly #bounds: WriterBounds;
  /** The sequence statement of the transaction being formed, if any, and its parameters. */
  #moving: { readonly within: Transaction; readonly params: [number, string, number] } | undefined;
  /** The sequence the committed item rows hold. */
  #foldedAt: number;
  /** The changes after `#foldedAt`, committed or on their way, one for each sequence. */
  readonly #unfolded: Change[];
  /** The sequences of the changes whose writes fold, not yet committed, in order. */
  readonly #folding: number[] = [];

  constructor(writes: SqlWrites, listKey: string, bounds: WriterBounds, itemRows: ItemRowsAt) {
    this.#writes = writes;
    this.#listKey = listKey;
    this.#bounds = bounds;
    this.#foldedAt = itemRows.sequence;
    this.#unfolded = [...itemRows.after];
  }

  persist(change: Change, sequence: number, done: WriteDone): void {
    this.#unfolded.push(change);
    this.#writes.enqueue(
      (transaction) => this.#statements(change, sequence, transaction),
      (error) => {
        this.#settled(sequence, error);
        done(error);
      },
    );
  }

  #statements(change: Change, sequence: number, transaction: Transaction): readonly SqlStatement[] {
    const listKey = this.#listKey;
    const insert = 'INSERT INTO list_changes (list, sequence, type, data) VALUES (?, ?, ?, ?)';
    let rows: SqlStatement[];
    if (change.type === 'list-renamed') {
      const { info, version } = change.list;
      rows = [
        statement(insert, listKey, sequence, change.type, JSON.stringify(info)),
        statement(
          'UPDATE lists SET title_json = ?, title_version = ? WHERE list = ?',
          ...[JSON.stringify(info.title), version, listKey],
        ),
      ];
    } else {
      rows = [statement(insert, listKey, sequence, change.type, change.item.json)];
      if (change.key !== undefined) {
        rows.push(
          statement(
            'INSERT INTO item_keys (list, sequence, idempotency_key, made_at, data) VALUES (?, ?, ?, ?, ?)',
            ...[listKey, sequence, change.key, Date.now(), change.item.json],
          ),
        );
      }
    }
    const foldedBefore = this.#folding.at(-1) ?? this.#foldedAt;
    if (sequence - foldedBefore >= FOLD_EVERY) {
      const from = foldedBefore - this.#foldedAt;
      rows.push(...this.#fold(this.#unfolded.slice(from, sequence - this.#foldedAt), sequence));
      this.#folding.push(sequence);
    }
    if (this.#moving?.within === transaction) {
      this.#moving.params[0] = sequence;
      return rows;
    }
    // A sequence moved already means another service holds this list too: the two would part ways.
    const params: [number, string, number] = [sequence, listKey, sequence - 1];
    this.#moving = { within: transaction, params };
    const sql = 'UPDATE lists SET sequence = ? WHERE list = ? AND sequence = ? RETURNING sequence';
    return [{ sql, params, orFail: SHARED_STORAGE }, ...rows];
  }

  /**
   * Each item written once, as `changes` left it, new ones in the order they were made (their
   * rowids are the list's order); trimming here spares each commit deletes.
   */
  #fold(changes: readonly Change[], through: number): SqlStatement[] {
    const listKey = this.#listKey;
    const touched = new Map<string, { readonly first: ItemChange; last: ItemChange }>();
    for (const change of changes) {
      if (change.type === 'list-renamed') continue;
      const seen = touched.get(change.item.todo.id);
      if (seen === undefined) touched.set(change.item.todo.id, { first: change, last: change });
      else seen.last = change;
    }
    const rows: SqlStatement[] = [];
    for (const { first, last } of touched.values()) {
      // An item first made among these changes has no row yet.
      const made = first.type === 'created';
      const { todo, version } = last.item;
      if (last.type === 'deleted') {
        if (!made)
          rows.push(
            statement('DELETE FROM list_items WHERE list = ? AND id = ?', listKey, todo.id),
          );
        continue;
      }
      const title = JSON.stringify(todo.title);
      const completed = todo.completed ? 1 : 0;
      rows.push(
        made
          ? statement(
              'INSERT INTO list_items (list, id, title_json, completed, version) VALUES (?, ?, ?, ?, ?)',
              ...[listKey, todo.id, title, completed, version],
            )
          : statement(
              'UPDATE list_items SET title_json = ?, completed = ?, version = ? WHERE list = ? AND id = ?',
              ...[title, completed, version, listKey, todo.id],
            ),
      );
    }
    rows.push(statement('UPDATE lists SET items_at = ? WHERE list = ?', through, listKey));
    const trim = 'DELETE FROM list_changes WHERE list = ? AND sequence <= ?';
    rows.push(statement(trim, listKey, through - this.#bounds.keepChanges));
    // The keys past their window, and beyond the most a list keeps, the oldest first.
    const { windowMs, most } = this.#bounds.keys;
    rows.push(
      statement(
        `DELETE FROM item_keys WHERE list = ? AND (made_at <= ? OR sequence <= (SELECT sequence
           FROM item_keys WHERE list = ? ORDER BY sequence DESC LIMIT 1 OFFSET ?))`,
        ...[listKey, Date.now() - windowMs, listKey, most],
      ),
    );
    return rows;
  }

  #settled(sequence: number, error: unknown): void {
    if (error === undefined) {
      if (this.#folding[0] !== sequence) return;
      this.#folding.shift();
      this.#unfolded.splice(0, sequence - this.#foldedAt);
      this.#foldedAt = sequence;
      return;
    }
    // Neither this change nor any later one was written (`SqlWrites`), nor a fold among them.
    this.#unfolded.length = Math.min(this.#unfolded.length, sequence - 1 - this.#foldedAt);
    while ((this.#folding.at(-1) ?? -Infinity) >= sequence) this.#folding.pop();
  }
}
