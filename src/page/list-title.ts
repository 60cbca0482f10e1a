import { compareVersions } from './event-order.ts';

/**
 * A named list's title: read from its route (the ETag its version), told by a `list-renamed`
 * event (its id), or answered to a rename, in any order; the later version wins.
 */
export class ListTitle {
  #title: string | undefined;
  #version: string | undefined;

  get title(): string | undefined {
    return this.#title;
  }

  /**
   * Takes `title` unless the one held is as late; true if it took it. A version of another run,
   * or one this page cannot place, is taken: the newest word is the best there is.
   */
  accept(title: string, version: string): boolean {
    const held = this.#version;
    if (held !== undefined && (version === held || (compareVersions(version, held) ?? 1) <= 0)) {
      return false;
    }
    this.#title = title;
    this.#version = version;
    return true;
  }
}
