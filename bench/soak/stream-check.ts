import type { EventSourceMessage } from 'eventsource-parser';
import type { Failures } from './failures.ts';
import { parseEventId } from './event-ids.ts';
import type { Ledger } from './ledger.ts';
import type { ListRead } from './list-read.ts';
import type { EventTally } from './tally.ts';

/** How a stream was asked for, and so what it must open with. */
export type Opening =
  | { readonly kind: 'new' }
  | { readonly kind: 'unknown id' }
  | { readonly kind: 'resume'; readonly after: number };

type Expectation = Opening | { readonly kind: 'next'; readonly seq: number };

export interface CheckDeps {
  readonly run: string;
  /** The service's `sse.replayEvents`: how far back a resume is answered with the events. */
  readonly replayEvents: number;
  readonly ledger: Ledger;
  readonly failures: Failures;
  readonly tally: EventTally;
}

/**
 * One client's view of the list, across all its streams: every event must come in sequence,
 * a resume must bring exactly the missed events (or a snapshot when they are too old to
 * replay), and the events must replay into a list (no item created twice, none updated or
 * deleted that the client does not hold).
 */
export class StreamCheck {
  readonly #deps: CheckDeps;
  readonly #name: string;
  #expect: Expectation = { kind: 'new' };
  /** The ids of the list as this client knows it; undefined after a failure, until a snapshot. */
  #items: Set<string> | undefined;
  #lastSeq: number | undefined;

  constructor(deps: CheckDeps, name: string) {
    this.#deps = deps;
    this.#name = name;
  }

  /** The seq of the last event received, in this stream or an earlier one. */
  get lastSeq(): number | undefined {
    return this.#lastSeq;
  }

  /** Once caught up with the list `final`, the events must have replayed into that list. */
  endsAt(final: ListRead): void {
    const items = this.#items;
    if (items === undefined) return;
    if (items.size === final.ids.size && [...items].every((id) => final.ids.has(id))) return;
    this.#deps.failures.add(
      'wrong event',
      `${this.#name}: its events replay into a list of ${items.size} items, ` +
        `not the service's ${final.ids.size}`,
    );
  }

  begin(opening: Opening): void {
    this.#expect = opening;
  }

  /** An event as the stream framed it: eventsource-parser gives each event its own id only. */
  onEvent({ id, event: type = 'message', data }: EventSourceMessage): void {
    const parsed = id === undefined ? undefined : parseEventId(id);
    if (parsed?.run !== this.#deps.run) {
      return this.#fail('wrong event', `an event whose id is ${id ?? 'missing'}`);
    }
    const { seq } = parsed;
    const expect = this.#expect;
    if (type === 'snapshot') this.#snapshot(expect, seq, data);
    else if (this.#inSequence(expect, seq)) this.#change(seq, type, data);
    this.#expect = { kind: 'next', seq: seq + 1 };
    this.#lastSeq = seq;
  }

  #snapshot(expect: Expectation, seq: number, data: string): void {
    const { tally, replayEvents } = this.#deps;
    tally.snapshots += 1;
    if (expect.kind === 'next') {
      this.#fail('wrong event', `a snapshot (seq ${seq}) in the middle of a stream`);
    } else if (expect.kind === 'resume' && seq - expect.after <= replayEvents) {
      this.#fail(
        'missed event',
        `resumed after seq ${expect.after} and got a snapshot at seq ${seq}, not the ` +
          `${seq - expect.after} events it missed (the replay buffer holds ${replayEvents})`,
      );
    } else if (expect.kind === 'resume') tally.tooOld += 1;
    else if (expect.kind === 'unknown id') tally.unknownIds += 1;
    try {
      this.#items = new Set((JSON.parse(data) as { id: string }[]).map((todo) => todo.id));
    } catch {
      this.#items = undefined;
      this.#fail('wrong event', `a snapshot that is not a list: ${data.slice(0, 200)}`);
    }
  }

  #inSequence(expect: Expectation, seq: number): boolean {
    if (expect.kind === 'new' || expect.kind === 'unknown id') {
      this.#fail(
        'wrong event',
        `a stream opened as ${expect.kind} began with seq ${seq}, not a snapshot`,
      );
      return false;
    }
    const wanted = expect.kind === 'resume' ? expect.after + 1 : expect.seq;
    if (seq === wanted) {
      if (expect.kind === 'resume') this.#deps.tally.replayed += 1;
      return true;
    }
    const where = expect.kind === 'resume' ? `resumed after seq ${expect.after}` : 'in a stream';
    if (seq > wanted) {
      const missed = seq - wanted;
      this.#fail(
        'missed event',
        `${where}, seq ${seq} came where ${wanted} was due (${missed} missed)`,
      );
    } else {
      this.#fail('wrong event', `${where}, seq ${seq} came again or out of order (${wanted} due)`);
    }
    return false;
  }

  #change(seq: number, type: string, data: string): void {
    this.#deps.tally.changes += 1;
    const todoId = this.#deps.ledger.fromEvent(seq, type, data);
    const items = this.#items;
    if (todoId === undefined || items === undefined) return;
    const held = items.has(todoId);
    if (type === 'created' ? held : !held) {
      this.#fail(
        'wrong event',
        `seq ${seq} ${type} ${todoId}, which it ${held ? 'already held' : 'did not hold'}`,
      );
      return;
    }
    if (type === 'created') items.add(todoId);
    else if (type === 'deleted') items.delete(todoId);
  }

  #fail(kind: 'missed event' | 'wrong event', detail: string): void {
    // What follows a failure cannot be checked against a list this client got wrong.
    this.#items = undefined;
    this.#deps.failures.add(kind, `${this.#name}: ${detail}`);
  }
}
