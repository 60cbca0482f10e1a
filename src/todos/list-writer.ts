import type { ChangeEvent } from '../live/events.ts';
import type { SqlStatement } from './sql-statements.ts';
import type { Batch, SqlWrites, WriteDone } from './sql-writes.ts';
import { changeRows, sequenceMove, type SequenceMove } from './sqlite-change-rows.ts';

/**
 * One list's changes on their way to SQLite, each a write of its own. The changes of one list
 * in one batch move the list's sequence, and trim its kept changes, once: the first of them
 * writes those statements, and each one after it moves them on to its own sequence.
 */
export class ListWriter {
  readonly #writes: SqlWrites;
  readonly #key: string;
  readonly #keepChanges: number;
  /** The statements that move the sequence in the batch being formed, if any is. */
  #moving: { readonly batch: Batch; readonly move: SequenceMove } | undefined;

  constructor(writes: SqlWrites, key: string, keepChanges: number) {
    this.#writes = writes;
    this.#key = key;
    this.#keepChanges = keepChanges;
  }

  persist(change: ChangeEvent, sequence: number, done: WriteDone): void {
    this.#writes.enqueue((batch) => this.#statements(change, sequence, batch), done);
  }

  #statements(change: ChangeEvent, sequence: number, batch: Batch): readonly SqlStatement[] {
    const rows = changeRows(this.#key, change, sequence, this.#keepChanges);
    if (this.#moving?.batch === batch) {
      this.#moving.move.moveTo(sequence);
      return rows;
    }
    const move = sequenceMove(this.#key, sequence, this.#keepChanges);
    this.#moving = { batch, move };
    return [...move.statements, ...rows];
  }
}
