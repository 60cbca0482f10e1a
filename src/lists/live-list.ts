import type { AppConfig } from '../config.ts';
import { HttpProblem } from '../http/problem.ts';
import type { StreamContext } from '../live/event-channel.ts';
import { EventStreams } from '../live/event-streams.ts';
import { DEFAULT_LIST_PATHS, listJsonOf, namedListPaths } from '../model/resources.ts';
import type { ListInfo, ListPaths } from '../model/resources.ts';
import type { StoreOptions } from '../storage/kept-lists.ts';
import type { StoredList } from '../store/changes.ts';
import type { ListStore } from '../store/list-store.ts';
import type { ViewIds } from './list-id.ts';

export interface ListContext extends StreamContext {
  readonly config: AppConfig;
  readonly host: StreamContext['host'] & { readonly reportError: (error: unknown) => void };
  readonly viewIds: ViewIds;
}

/** The lists a handler serves: all of them on Node; on workerd, one an object, none the worker. */
export interface ListDirectory {
  /** The list of `/api/todos` and `/api/sse`; undefined where this handler does not hold it. */
  readonly defaultList: LiveList | undefined;
  /** The named lists by id; none for an id never made, deleted, or not an id at all. */
  readonly named: { get(id: string): LiveList | undefined };
  /** Makes an empty named list, or replays a key's create; `admit` may refuse it by throwing. */
  create(title: string, idempotencyKey?: string, admit?: () => Promise<void>): Promise<StoredList>;
  delete(list: LiveList): Promise<void>;
  /** The lists in memory now, for shutdown and for what a host reports of its streams. */
  inMemory(): Iterable<LiveList>;
}

export type OpenListDirectory = (context: ListContext) => ListDirectory;

export function storeOptionsOf({ config, host }: ListContext): StoreOptions {
  return {
    keepChanges: config.sse.replayEvents,
    keys: { windowMs: config.limits.idempotencyKeyHours * 3_600_000, most: config.limits.maxItems },
    reportError: (error) => host.reportError(error),
  };
}

/** One answer for every id that names no list (never made, deleted, not an id): none says which. */
export function noSuchList(): HttpProblem {
  return new HttpProblem(404, 'No list has this id.');
}

export type ListRoute = (list: LiveList, viewOnly: boolean) => Response | Promise<Response>;

/** Runs `route` on the list `id` names: by edit id at once, by view id once unwrapped. */
export function reachNamedList(
  lists: ListDirectory,
  viewIds: ViewIds,
  id: string,
  route: ListRoute,
): Response | Promise<Response> {
  const list = lists.named.get(id);
  if (list !== undefined) return route(list, false);
  return viewIds.editIdOf(id).then((editId) => {
    const viewed = editId === undefined ? undefined : lists.named.get(editId);
    if (viewed === undefined) throw noSuchList();
    return route(viewed, true);
  });
}

/** Every change through a view id is refused, before anything else is checked. */
export function refuseViewOnly(viewOnly: boolean): void {
  if (!viewOnly) return;
  const detail =
    'This link only reads the list: changing it takes the link it was shared to edit with.';
  throw new HttpProblem(403, detail);
}

const utf8 = new TextEncoder();

/** A list as the routes serve it; its streams are made for a first client (or at shutdown). */
export class LiveList {
  readonly store: ListStore;
  readonly paths: ListPaths;
  readonly #context: ListContext;
  #events: EventStreams | undefined;
  #viewId: string | undefined;
  #deleting = false;
  // Encoded once a version: a host sends bytes as they are, but encodes a string for each answer.
  #itemsJson: { readonly version: string; readonly bytes: Uint8Array } | undefined;

  constructor(store: ListStore, context: ListContext) {
    this.store = store;
    this.#context = context;
    this.paths = this.id === '' ? DEFAULT_LIST_PATHS : namedListPaths(this.id);
  }

  get id(): string {
    return this.store.resource.info.id;
  }

  /** The view id (undefined for the default list, which has none), derived once. */
  async viewId(): Promise<string | undefined> {
    if (this.id === '') return undefined;
    return (this.#viewId ??= await this.#context.viewIds.viewIdOf(this.id));
  }

  /** The list's JSON through either id; its view id must be known (`viewId()`) by now. */
  jsonOf(info: ListInfo, viewOnly: boolean): string {
    return listJsonOf(info, this.#viewId!, viewOnly);
  }

  /** 404 once deleted: a request that waited (for its body, say) must not change it then. */
  stillThere(): this {
    if (this.#deleting) throw noSuchList();
    return this;
  }

  get events(): EventStreams {
    return (this.#events ??= new EventStreams(this, this.#context));
  }

  itemsJson(): Uint8Array {
    const { version } = this.store;
    if (this.#itemsJson?.version !== version) {
      const json = Array.from(this.store.items(), (item) => item.json).join(',');
      this.#itemsJson = { version, bytes: utf8.encode(`[${json}]`) };
    }
    return this.#itemsJson.bytes;
  }

  /** Takes no change while `remove` runs, and goes on if it fails; else its streams end. */
  async delete(remove: () => Promise<void>): Promise<void> {
    this.#deleting = true;
    try {
      await remove();
    } catch (error) {
      this.#deleting = false;
      throw error;
    }
    this.#events?.endForDeletion();
  }
}
