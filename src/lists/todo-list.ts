import { etagOf } from '../http/etag.ts';
import { EventStreams } from '../live/event-streams.ts';
import type { StoredTodo, TodoStore } from '../todos/store.ts';
import type { ListContext } from './list-directory.ts';
import { DEFAULT_LIST_PATHS, namedListPaths, type ListPaths } from './list-paths.ts';

/** What an answer about one item carries: its ETag and its JSON, as text or encoded. */
export interface ItemAnswer {
  readonly etag: string;
  readonly json: string | Uint8Array;
}

const utf8 = new TextEncoder();

/**
 * One list as the routes serve it: its store, where its routes are, its event streams (made
 * when the first client opens one, so a list nobody watches costs only its store), and the
 * answers worth keeping between requests. The default list's id is `''`.
 */
export class TodoList {
  readonly store: TodoStore;
  readonly paths: ListPaths;
  readonly #context: ListContext;
  #events: EventStreams | undefined;
  /** Set while the list is being deleted, and once it is. */
  #deleting = false;
  #closed = false;
  // The list's ETag is the store's version, so its JSON only needs making, and encoding, once
  // per change: a host can send the bytes as they are, where a string is measured and encoded
  // again for every answer.
  #listAnswer: { version: string; body: Uint8Array } | undefined;
  // A read's answer changes only with the item's version, and every version is a new
  // StoredTodo: its ETag and JSON bytes are made on the first read, not on every one, as the
  // list's are. Only items that are read take the memory.
  readonly #readAnswers = new WeakMap<StoredTodo, ItemAnswer>();

  constructor(store: TodoStore, context: ListContext) {
    this.store = store;
    this.#context = context;
    this.paths = this.isDefault ? DEFAULT_LIST_PATHS : namedListPaths(this.id);
  }

  get id(): string {
    return this.store.listInfo.id;
  }

  get isDefault(): boolean {
    return this.id === '';
  }

  /** Whether the list is deleted, or being deleted: a request that began before must not change it. */
  get deleted(): boolean {
    return this.#deleting;
  }

  /** The list's event streams, made on first use. */
  get events(): EventStreams {
    if (this.#events === undefined) {
      const { config, host, tally } = this.#context;
      this.#events = new EventStreams(this.store, config.sse, host, tally);
      if (this.#closed) this.#events.close();
    }
    return this.#events;
  }

  /** `GET` of the items as bytes, made once per version of the list. */
  listBody(): Uint8Array {
    const { version } = this.store;
    if (this.#listAnswer?.version !== version) {
      this.#listAnswer = { version, body: utf8.encode(JSON.stringify(this.store.list())) };
    }
    return this.#listAnswer.body;
  }

  /** The answer about `stored` to a read, made on its first read. */
  readAnswerOf(stored: StoredTodo): ItemAnswer {
    let answer = this.#readAnswers.get(stored);
    if (answer === undefined) {
      const json = utf8.encode(JSON.stringify(stored.todo));
      this.#readAnswers.set(stored, (answer = { etag: etagOf(stored.version), json }));
    }
    return answer;
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
    this.#events?.endForDeletion(this.store.listInfo);
  }

  /** Ends the open streams and refuses new ones: the host is shutting down. */
  close(): void {
    this.#closed = true;
    this.#events?.close();
  }
}

/** The answer about one item version: its ETag and its JSON. */
export function answerOf(stored: StoredTodo): ItemAnswer {
  return { etag: etagOf(stored.version), json: JSON.stringify(stored.todo) };
}
