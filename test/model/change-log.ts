import type { TodoJson } from '../support/api.ts';
import type { ListJson } from '../support/lists.ts';

/** One successful change of a list, as its event stream must tell it. */
export type ModelChange =
  | { readonly type: 'created' | 'updated' | 'deleted'; readonly todo: TodoJson }
  | { readonly type: 'list-renamed'; readonly list: ListJson };

/** A change the model made, with the list right after it, for comparing a stream's replay. */
export interface LoggedChange {
  readonly change: ModelChange;
  readonly command: string;
  readonly items: readonly TodoJson[];
  /**
   * The list's version right after, which is the change's event id: learnt from the answer,
   * or later, for an item's delete, whose answer does not tell it.
   */
  version: string | undefined;
}

/**
 * Every change of one list in order, so that a stream opened at any point, or resuming after
 * any version the model knows, can be told what it must replay. Point `n` is the list after
 * its first `n` changes; every list starts empty.
 */
export class ChangeLog {
  readonly changes: LoggedChange[] = [];
  /** The version at point 0: for a named list, its create's ETag. */
  #openingVersion: string | undefined;

  constructor(openingVersion?: string) {
    this.#openingVersion = openingVersion;
  }

  get end(): number {
    return this.changes.length;
  }

  record(change: ModelChange, command: string, items: readonly TodoJson[], version?: string) {
    this.changes.push({ change, command, items: [...items], version });
  }

  /** The version the list has now, seen after a change that did not tell it. */
  learnVersion(version: string): void {
    const last = this.changes.at(-1);
    if (last === undefined) this.#openingVersion ??= version;
    else last.version ??= version;
  }

  /** The version at `point`, where the model knows it. */
  versionAt(point: number): string | undefined {
    return point === 0 ? this.#openingVersion : this.changes[point - 1]!.version;
  }

  itemsAt(point: number): readonly TodoJson[] {
    return point === 0 ? [] : this.changes[point - 1]!.items;
  }

  /** The points whose version the model knows, oldest first, with the version. */
  knownPoints(): { point: number; version: string }[] {
    const versions = [this.#openingVersion, ...this.changes.map((logged) => logged.version)];
    return versions.flatMap((version, point) =>
      version === undefined ? [] : [{ point, version }],
    );
  }
}
