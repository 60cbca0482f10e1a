/**
 * The events of `GET /api/sse`, shared by the server, which writes them, and the page, which
 * reads them. This module runs in the browser too: it imports types only.
 */
import type { Todo } from '../todos/todo.ts';

/** The whole list, sent to a client that is new or cannot be brought up to date. */
export interface SnapshotEvent {
  readonly type: 'snapshot';
  readonly id: string;
  readonly todos: readonly Todo[];
}

/** One successful change; for `deleted`, the item as it was. */
export interface ChangeEvent {
  readonly type: 'created' | 'updated' | 'deleted';
  readonly id: string;
  readonly todo: Todo;
}

export type LiveEvent = SnapshotEvent | ChangeEvent;
export type LiveEventType = LiveEvent['type'];

export const LIVE_EVENT_TYPES: readonly LiveEventType[] = [
  'snapshot',
  'created',
  'updated',
  'deleted',
];

/** Where an event id stands: the server run that wrote it, and its place in that run. */
export interface EventPlace {
  readonly run: string;
  readonly sequence: number;
}

/**
 * The id of the event at `sequence` in `run`, which is also the list's version and ETag then.
 * The run tells a client that the server restarted; the sequence orders events within it.
 */
export function eventIdOf({ run, sequence }: EventPlace): string {
  return `${run}.${sequence}`;
}

/** The place an id names, or undefined for an id this protocol did not write. */
export function placeOfEventId(id: string): EventPlace | undefined {
  const match = /^([^.]+)\.(0|[1-9][0-9]{0,14})$/.exec(id);
  return match ? { run: match[1]!, sequence: Number(match[2]) } : undefined;
}

/** How long a client waits before reconnecting, sent as the stream's `retry` field. */
export const RECONNECT_DELAY_MS = 3000;

/** The query parameter that carries the last event id for clients that cannot set headers. */
export const LAST_EVENT_ID_PARAM = 'lastEventId';

export const EVENTS_PATH = '/api/sse';

function isTodo(value: unknown): value is Todo {
  if (typeof value !== 'object' || value === null) return false;
  const { id, title, completed } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof title === 'string' && typeof completed === 'boolean';
}

/**
 * The event an SSE message carries, or undefined when its type or data is not one this
 * protocol defines: a client ignores what it does not understand rather than break.
 */
export function readLiveEvent(type: string, id: string, data: string): LiveEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  switch (type) {
    case 'snapshot':
      return Array.isArray(value) && value.every(isTodo) ? { type, id, todos: value } : undefined;
    case 'created':
    case 'updated':
    case 'deleted':
      return isTodo(value) ? { type, id, todo: value } : undefined;
    default:
      return undefined;
  }
}

/** The event as the stream writes it: one SSE message. */
export function formatLiveEvent(event: LiveEvent): string {
  const data = JSON.stringify(event.type === 'snapshot' ? event.todos : event.todo);
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${data}\n\n`;
}
