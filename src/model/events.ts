// The events of the event streams: the server writes them, the page reads them. This module
// runs in the browser too, so it imports types only.
import type { ListInfo, Todo } from './resources.ts';

/** The whole list of items, sent to a client that is new or cannot be brought up to date. */
export interface SnapshotEvent {
  readonly type: 'snapshot';
  readonly id: string;
  readonly todos: readonly Todo[];
}

/** Every change a list's stream tells, in its order: each has an id a client may resume after. */
export type ChangeEvent =
  // For `deleted`, the item as it was.
  | { readonly type: 'created' | 'updated' | 'deleted'; readonly id: string; readonly todo: Todo }
  // The list as `GET /api/lists/{id}` gives it.
  | { readonly type: 'list-renamed'; readonly id: string; readonly list: ListInfo };

/** The events that carry an id: a snapshot, or a change after which a client may resume. */
export type IdentifiedEvent = SnapshotEvent | ChangeEvent;

/** A named list's deletion is its streams' last event, with no id: nothing is left to resume. */
type LiveEvent = IdentifiedEvent | { readonly type: 'list-deleted'; readonly list: ListInfo };
type LiveEventType = LiveEvent['type'];

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'snapshot',
  'created',
  'updated',
  'deleted',
  'list-renamed',
  'list-deleted',
];

/** The id of the event at `sequence` in a `run` of the list's: also its version and ETag then. */
export function eventIdOf({ run, sequence }: { run: string; sequence: number }): string {
  return `${run}.${sequence}`;
}

/** The place an id names, or undefined for an id this protocol did not write. */
export function placeOfEventId(id: string): { run: string; sequence: number } | undefined {
  const match = /^([^.]+)\.(0|[1-9][0-9]{0,14})$/.exec(id);
  return match ? { run: match[1]!, sequence: Number(match[2]) } : undefined;
}

/** How long a client waits before reconnecting, sent as the stream's `retry` field. */
export const RECONNECT_DELAY_MS = 3000;

/** The query parameter that carries the last event id for clients that cannot set headers. */
export const LAST_EVENT_ID_PARAM = 'lastEventId';

function isListInfo(value: unknown): value is ListInfo {
  if (typeof value !== 'object' || value === null) return false;
  const { id, title } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof title === 'string';
}

function isTodo(value: unknown): value is Todo {
  return isListInfo(value) && typeof (value as { completed?: unknown }).completed === 'boolean';
}

/** The event an SSE message carries, or undefined for one this protocol does not define. */
export function readLiveEvent(type: string, id: string, data: string): LiveEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (type === 'snapshot') {
    return Array.isArray(value) && value.every(isTodo) ? { type, id, todos: value } : undefined;
  }
  if (type === 'created' || type === 'updated' || type === 'deleted') {
    return isTodo(value) ? { type, id, todo: value } : undefined;
  }
  if (type === 'list-renamed') return isListInfo(value) ? { type, id, list: value } : undefined;
  if (type === 'list-deleted') return isListInfo(value) ? { type, list: value } : undefined;
  return undefined;
}

/**
 * One SSE message of `type`, its data `json` already encoded (JSON has no line break outside a
 * string, so it is one `data` line). Without `id`, the event cannot be resumed after.
 */
export function sseMessage(type: LiveEventType, json: string, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${json}\n\n`;
}
