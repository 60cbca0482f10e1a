import { placeOfEventId, type ChangeEvent, type IdentifiedEvent } from '../model/events.ts';

/** How far version (event id) `a` comes after `b`; undefined if not placed, or of other runs. */
export function compareVersions(a: string, b: string): number | undefined {
  const [first, second] = [placeOfEventId(a), placeOfEventId(b)];
  if (first === undefined || second === undefined || first.run !== second.run) return undefined;
  return first.sequence - second.sequence;
}

/** Whether `version` comes after `held`: one of another run, or not placed, is the newest word. */
export function isLaterTitle(version: string, held: string | undefined): boolean {
  return held === undefined || (version !== held && (compareVersions(version, held) ?? 1) > 0);
}

/**
 * Lets every event through once, in order, whether streamed, relayed or read. Ids it cannot
 * place go through: showing a change twice is better than losing it.
 */
export class EventOrder {
  #lastId: string | undefined;
  readonly #waiting: ChangeEvent[] = [];

  constructor(private readonly apply: (event: IdentifiedEvent) => void) {}

  /** The id of the last event applied: where a stream opened by this tab resumes. */
  get lastId(): string | undefined {
    return this.#lastId;
  }

  accept(event: IdentifiedEvent): void {
    if (event.type === 'snapshot') {
      if (this.#isLater(event.id, true)) this.#applied(event);
      for (const change of this.#waiting.splice(0)) this.accept(change);
    } else if (this.#lastId === undefined) {
      this.#waiting.push(event);
    } else if (this.#isLater(event.id, false)) {
      this.#applied(event);
    }
  }

  #isLater(id: string, isSnapshot: boolean): boolean {
    if (this.#lastId === undefined) return true;
    const order = compareVersions(id, this.#lastId);
    if (order !== undefined) return order > 0;
    // A change of another run is never applied to this list: its run's snapshot comes first.
    const placed = placeOfEventId(id) !== undefined && placeOfEventId(this.#lastId) !== undefined;
    return isSnapshot || !placed;
  }

  #applied(event: IdentifiedEvent): void {
    this.#lastId = event.id;
    this.apply(event);
  }
}
