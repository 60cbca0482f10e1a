import type { ChangeEvent } from '../live/events.ts';
import type { SqlStatement } from './sql-statements.ts';
import type { Batch, SqlWrites, WriteDone } from './sql-writes.ts';
import { changeRows, foldRows, sequenceMove, type SequenceMove } from './sqlite-change-rows.ts';

/**
 * How many changes of a list are written as changes alone before they are folded into its item
 * rows. An item's change then costs one row, not a row and its indexes, and an item made and
 * deleted within the same stretch never gets a row at all; loading a list replays fewer than
 * this many changes over its item rows.
 */
export const FOLD_EVERY = 1024;

/** Where a list's item rows stand: the sequence they hold, and the changes after it, in order. */
export interface ItemRowsAt {
  readonly sequence: number;
  readonly after: readonly ChangeEvent[];
}

/**
 * One list's changes on their way to SQLite, each a write of its own. The changes of one list
 * in one batch move the list's sequence once: the first of them writes that statement, and each
 * one after it moves it on to its own sequence. Every `FOLD_EVERY` changes, one of them also
 * folds the changes since the last fold into the item rows, and trims the kept changes.
 */
export class ListWriter {
  readonly #writes: SqlWrites;
  readonly #key: string;
  readonly #keepChanges: number;
  /** The statements that move the sequence in the batch being formed, if any is. */
  #moving: { readonly batch: Batch; readonly move: SequenceMove } | undefined;
  /** The sequence the committed item rows hold. */
  #foldedAt: number;
  /**
   * The changes after `#foldedAt`, committed or on their way, one for each sequence from
   * `#foldedAt + 1` on: a write that fails takes every later one with it.
   */
  readonly #unfolded: ChangeEvent[];
  /** The sequences of the changes whose writes fold, not yet committed, in order. */
  readonly #folding: number[] = [];

  constructor(writes: SqlWrites, key: string, keepChanges: number, itemRows: ItemRowsAt) {
    this.#writes = writes;
    this.#key = key;
    this.#keepChanges = keepChanges;
    this.#foldedAt = itemRows.sequence;
    this.#unfolded = [...itemRows.after];
  }

  persist(change: ChangeEvent, sequence: number, done: WriteDone): void {
    this.#unfolded.push(change);
    this.#writes.enqueue(
      (batch) => this.#statements(change, sequence, batch),
      (error) => {
        this.#settled(sequence, error);
        done(error);
      },
    );
  }

  #statements(change: ChangeEvent, sequence: number, batch: Batch): readonly SqlStatement[] {
    const rows = changeRows(this.#key, change, sequence, this.#keepChanges);
    const foldedBefore = this.#folding.at(-1) ?? this.#foldedAt;
    if (sequence - foldedBefore >= FOLD_EVERY) {
      const changes = this.#unfolded.slice(
        foldedBefore - this.#foldedAt,
        sequence - this.#foldedAt,
      );
      rows.push(...foldRows(this.#key, changes, sequence, this.#keepChanges));
      this.#folding.push(sequence);
    }
    if (this.#moving?.batch === batch) {
      this.#moving.move.moveTo(sequence);
      return rows;
    }
    const move = sequenceMove(this.#key, sequence);
    this.#moving = { batch, move };
    return [...move.statements, ...rows];
  }

  #settled(sequence: number, error: unknown): void {
    if (error === undefined) {
      if (this.#folding[0] !== sequence) return;
      this.#folding.shift();
      this.#unfolded.splice(0, sequence - this.#foldedAt);
      this.#foldedAt = sequence;
      return;
    }
    // Neither this change nor any after it was written; nor was a fold among them.
    this.#unfolded.length = Math.min(this.#unfolded.length, sequence - 1 - this.#foldedAt);
    while ((this.#folding.at(-1) ?? -Infinity) >= sequence) this.#folding.pop();
  }
}
