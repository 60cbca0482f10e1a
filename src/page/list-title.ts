import { placeOfEventId } from '../model/events.ts';

/**
 * A named list's title as this tab knows it. It comes three ways: read from the list's route,
 * with the version at which it was set as its ETag; in a `list-renamed` event, whose id is a
 * version of the same sequence; and as the answer to this tab's own rename. They arrive in any
 * order (a read may answer after the stream told a later rename), so the later version wins.
 */
export class ListTitle {
  #title: string | undefined;
  #version: string | undefined;

  /** The title, or undefined until one arrives. */
  get title(): string | undefined {
    return this.#title;
  }

  /** Takes `title` as of `version` unless the one held is as late; true when it took it. */
  accept(title: string, version: string): boolean {
    if (this.#version !== undefined && !isLater(version, this.#version)) return false;
    this.#title = title;
    this.#version = version;
    return true;
  }
}

function isLater(next: string, held: string): boolean {
  if (next === held) return false;
  const nextPlace = placeOfEventId(next);
  const heldPlace = placeOfEventId(held);
  // A version this page cannot place, or of another run (the service started again): the
  // newest word is the best there is.
  if (nextPlace === undefined || heldPlace === undefined) return true;
  if (nextPlace.run !== heldPlace.run) return true;
  return nextPlace.sequence > heldPlace.sequence;
}
