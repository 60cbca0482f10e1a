import { concatBytes } from '../http/body.ts';
import { HttpProblem } from '../http/problem.ts';
import { LAST_EVENT_ID_PARAM, RECONNECT_DELAY_MS, sseMessage } from '../model/events.ts';
import type { Change } from '../store/changes.ts';
import {
  EventClient,
  MAX_BACKLOG_BYTES,
  PING,
  type EventChannel,
  type StreamContext,
  type StreamedList,
} from './event-channel.ts';

const encoder = new TextEncoder();
const RETRY = encoder.encode(`retry: ${RECONNECT_DELAY_MS}\n\n`);
const END_OF_SNAPSHOT = encoder.encode('\n\n');

/** One list's streams, fed by one subscription to its store: a change is encoded once for all. */
export class EventStreams {
  readonly #list: StreamedList;
  readonly #context: StreamContext;
  readonly #clients = new Set<EventClient>();
  readonly #viewers = new WeakSet<EventClient>();
  readonly #frames = new WeakMap<Change, Uint8Array>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** Changes committed, not yet written to the clients. */
  #unsent: Change[] = [];
  #closed = false;

  constructor(list: StreamedList, context: StreamContext) {
    this.#list = list;
    this.#context = context;
    const { host } = context;
    list.store.subscribe((change) => {
      if (this.#clients.size === 0) return;
      this.#unsent.push(change);
      // With 10,000 streams open, writing a change to each takes a tenth of a second: the
      // change's answer goes first. Changes made meanwhile go out together, in order.
      if (host.afterAnswers === undefined) this.#sendUnsent();
      else if (this.#unsent.length === 1) host.afterAnswers(() => this.#sendUnsent());
    });
  }

  /**
   * A new stream's channel, or 503 when the list is full or stopping; `onEnd` runs at its end,
   * never on a refusal.
   */
  open(request: Request, viewOnly: boolean, onEnd?: () => void): EventChannel {
    if (this.#closed) throw unavailable('The server is shutting down; reconnect in a moment.');
    const { maxClients } = this.#context.config.sse;
    if (this.#clients.size >= maxClients) {
      throw unavailable(
        `Too many event streams are open (the most is ${maxClients}); try again shortly.`,
      );
    }
    // A request aborted already will never fire its abort event.
    if (request.signal.aborted) throw new HttpProblem(400, 'The request was aborted.');
    // The open clients get every change first, then the opening is read and the client joins
    // in one synchronous step: no change is missed or sent twice.
    this.#sendUnsent();
    const opening = this.#opening(lastEventIdOf(request), viewOnly);
    const openingBytes = opening.reduce((total, part) => total + part.byteLength, 0);
    const channel = this.#context.host.openEventChannel(openingBytes + MAX_BACKLOG_BYTES, viewOnly);
    const client = this.#join(channel, viewOnly, request.signal, onEnd);
    for (const part of opening) client.send(part);
    return channel;
  }

  /** Takes on a stream the host kept while the list was out of memory (a hibernated socket). */
  adopt(channel: EventChannel, viewOnly: boolean): void {
    this.#sendUnsent();
    this.#join(channel, viewOnly);
  }

  /** Ends every open stream cleanly and refuses new ones: the host is shutting down. */
  close(): void {
    this.#sendUnsent();
    this.#closed = true;
    for (const client of this.#clients) client.end();
  }

  endForDeletion(): void {
    this.#sendUnsent();
    const { info } = this.#list.store.resource;
    const frame = (viewOnly: boolean) =>
      encoder.encode(sseMessage('list-deleted', this.#list.jsonOf(info, viewOnly)));
    this.#sendAll(frame(false), frame(true));
    this.close();
  }

  /** The changes missed since `lastEventId`, or else the items, encoded once for all streams. */
  #opening(lastEventId: string | undefined, viewOnly: boolean): Uint8Array[] {
    const { store } = this.#list;
    const missed = lastEventId ? store.changesSince(lastEventId) : undefined;
    if (missed !== undefined) return [RETRY, this.#framed(missed, viewOnly)];
    const head = encoder.encode(`id: ${store.version}\nevent: snapshot\ndata: `);
    return [RETRY, head, this.#list.itemsJson(), END_OF_SNAPSHOT];
  }

  #join(channel: EventChannel, viewOnly: boolean, signal?: AbortSignal, onEnd?: () => void) {
    const { config, host, tally } = this.#context;
    const client = new EventClient(channel, signal, () => {
      this.#clients.delete(client);
      tally.openCount -= 1;
      if (this.#clients.size === 0 && this.#heartbeat !== undefined) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
        tally.heartbeats -= 1;
      }
      onEnd?.();
    });
    if (viewOnly) this.#viewers.add(client);
    this.#clients.add(client);
    tally.openCount += 1;
    if (this.#heartbeat === undefined && host.writesHeartbeats) {
      const intervalMs = config.sse.heartbeatSeconds * 1000;
      this.#heartbeat = setInterval(() => this.#sendAll(PING), intervalMs);
      tally.heartbeats += 1;
    }
    return client;
  }

  /** An item's change replayed to many clients is encoded once; a rename, rare, each time. */
  #framed(changes: readonly Change[], viewOnly: boolean): Uint8Array {
    const frames = changes.map((change) => {
      if (change.type === 'list-renamed') {
        const json = this.#list.jsonOf(change.list.info, viewOnly);
        return encoder.encode(sseMessage(change.type, json, change.id));
      }
      let frame = this.#frames.get(change);
      if (frame === undefined) {
        frame = encoder.encode(sseMessage(change.type, change.item.json, change.id));
        this.#frames.set(change, frame);
      }
      return frame;
    });
    return concatBytes(frames);
  }

  #sendUnsent(): void {
    if (this.#unsent.length === 0) return;
    const unsent = this.#unsent;
    this.#unsent = [];
    const bytes = this.#framed(unsent, false);
    // Only a rename reads differently through the view id.
    const renamed = unsent.some(({ type }) => type === 'list-renamed');
    this.#sendAll(bytes, renamed ? this.#framed(unsent, true) : bytes);
  }

  #sendAll(bytes: Uint8Array, viewBytes = bytes): void {
    for (const client of this.#clients) {
      client.send(viewBytes !== bytes && this.#viewers.has(client) ? viewBytes : bytes);
    }
  }
}

function unavailable(detail: string): HttpProblem {
  return new HttpProblem(503, detail, {
    headers: { 'retry-after': String(RECONNECT_DELAY_MS / 1000) },
  });
}

/** The header a reconnecting EventSource sends wins over the query of the URL it first used. */
export function lastEventIdOf(request: Request): string | undefined {
  return (
    request.headers.get('last-event-id') ||
    new URL(request.url).searchParams.get(LAST_EVENT_ID_PARAM) ||
    undefined
  );
}
