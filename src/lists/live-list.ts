import type { AppConfig } from '../config.ts';
import { HttpProblem } from '../http/problem.ts';
import type { StreamTally } from '../live/event-channel.ts';
import { EventStreams, type StreamHost } from '../live/event-streams.ts';
import { DEFAULT_LIST_PATHS, namedListPaths, type ListPaths } from '../model/resources.ts';
import type { ListStore } from '../store/list-store.ts';

/** What every list of an app shares: its settings, the host's ways, the tally of its streams. */
export interface ListContext {
  readonly config: AppConfig;
  readonly host: StreamHost & { readonly reportError: (error: unknown) => void };
  readonly tally: StreamTally;
}

/**
 * One answer for every id that names no list (never made, deleted, or not an id at all), so
 * that nothing in it tells which.
 */
export function noSuchList(): HttpProblem {
  return new HttpProblem(404, 'No list has this id.');
}

const utf8 = new TextEncoder();

/**
 * One list as the routes serve it: its store, where its routes are, and its event streams,
 * made when the first client opens one, so that a list nobody watches costs only its store. The
 * default list's id is `''`.
 */
export class LiveList {
  readonly store: ListStore;
  readonly paths: ListPaths;
  readonly #context: ListContext;
  #events: EventStreams | undefined;
  /** Set while the list is being deleted, and once it is. */
  #deleting = false;
  #closed = false;
  // The list's ETag is the store's version, so its JSON only needs making, and encoding, once
  // per change: a host can send the bytes as they are, where a string is measured and encoded
  // again for every answer.
  #itemsJson: { readonly version: string; readonly bytes: Uint8Array } | undefined;

  constructor(store: ListStore, context: ListContext) {
    this.store = store;
    this.#context = context;
    this.paths = this.isDefault ? DEFAULT_LIST_PATHS : namedListPaths(this.id);
  }

  get id(): string {
    return this.store.title.info.id;
  }

  get isDefault(): boolean {
    return this.id === '';
  }

  /** Whether the list is deleted, or being deleted. */
  get deleted(): boolean {
    return this.#deleting;
  }

  /**
   * The list, unless it was deleted while the request waited (for its body, say): a request
   * that began before the delete must not change it.
   */
  stillThere(): this {
    if (this.#deleting) throw noSuchList();
    return this;
  }

  /** The list's event streams, made on first use. */
  get events(): EventStreams {
    if (this.#events === undefined) {
      const { config, host, tally } = this.#context;
      const itemsJson = () => this.itemsJson();
      this.#events = new EventStreams(this.store, itemsJson, config.sse, host, tally);
      if (this.#closed) this.#events.close();
    }
    return this.#events;
  }

  /** The JSON array of the items, encoded, made once per version of the list. */
  itemsJson(): Uint8Array {
    const { version } = this.store;
    if (this.#itemsJson?.version !== version) {
      const json = Array.from(this.store.items(), (item) => item.json).join(',');
      this.#itemsJson = { version, bytes: utf8.encode(`[${json}]`) };
    }
    return this.#itemsJson.bytes;
  }

  /** The list is being deleted: it takes no change from now on, unless the deletion fails. */
  beginDeletion(): void {
    this.#deleting = true;
  }

  /** Its storage could not be deleted: the list goes on as it was. */
  cancelDeletion(): void {
    this.#deleting = false;
  }

  /** The list is deleted: its streams get the last event and end, and it takes no change. */
  markDeleted(): void {
    this.#deleting = true;
    this.#events?.endForDeletion(this.store.title);
  }

  /** Ends the open streams and refuses new ones: the host is shutting down. */
  close(): void {
    this.#closed = true;
    this.#events?.close();
  }
}
