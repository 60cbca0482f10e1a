import { placeOfEventId, type ChangeEvent, type IdentifiedEvent } from '../model/events.ts';

/**
 * Lets every event through once, in order, whichever way it came: from this tab's stream, from
 * the tab that holds the stream, or as the list read from the API. Two tabs can relay the same
 * event around a handover, and a list read may be older or newer than the events around it.
 *
 * An event is applied when it is later in the run of the list shown; a snapshot also when it
 * is of another run, as after a server restart. Changes that come before any list wait for
 * one. Ids this page cannot place are let through: showing a change twice is better than
 * losing it.
 */
export class EventOrder {
  #lastId: string | undefined;
  #waiting: ChangeEvent[] = [];

  constructor(private readonly apply: (event: IdentifiedEvent) => void) {}

  /** The id of the last event applied: where a stream opened by this tab resumes. */
  get lastId(): string | undefined {
    return this.#lastId;
  }

  accept(event: IdentifiedEvent): void {
    if (event.type === 'snapshot') {
      if (this.#isLater(event.id, true)) this.#applied(event);
      const waiting = this.#waiting;
      this.#waiting = [];
      for (const change of waiting) this.accept(change);
    } else if (this.#lastId === undefined) {
      this.#waiting.push(event);
    } else if (this.#isLater(event.id, false)) {
      this.#applied(event);
    }
  }

  #isLater(id: string, isSnapshot: boolean): boolean {
    const next = placeOfEventId(id);
    const shown = this.#lastId === undefined ? undefined : placeOfEventId(this.#lastId);
    if (next === undefined || shown === undefined) return true;
    // A change of another run is never applied to this list: its run's snapshot comes first.
    if (next.run !== shown.run) return isSnapshot;
    return next.sequence > shown.sequence;
  }

  #applied(event: IdentifiedEvent): void {
    this.#lastId = event.id;
    this.apply(event);
  }
}
