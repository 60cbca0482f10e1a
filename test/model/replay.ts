import { expect } from 'vitest';
import type { TodoJson } from '../support/api.ts';
import type { TestService } from '../support/hosts.ts';
import { openStream, unquoted, type StreamReader } from '../support/sse.ts';
import type { ListModel } from './list-model.ts';
import type { WireRequest } from './wire.ts';

/** An open event stream of one list, and where in the list's log it opened. */
export interface Subscription {
  readonly stream: StreamReader;
  readonly list: ListModel;
  /** The point of the list's log the stream opened at: it must tell every change after. */
  readonly from: number;
  /** Whether it opens with a snapshot; one that resumed opens with what it missed. */
  readonly snapshot: boolean;
}

/** Opens the stream `request` asks for, on `list`, which is there. */
export async function subscribe(
  service: TestService,
  list: ListModel,
  request: WireRequest,
): Promise<Subscription> {
  // Over HTTP, a stream's connection would otherwise stay open once the stream ends, and the
  // stopping server would wait for its next sweep of idle connections to close it.
  const headers = { ...request.headers, connection: 'close' };
  const stream = await openStream(service, { path: request.path, headers });
  const { resumeAt } = request;
  return { stream, list, from: resumeAt ?? list.log.end, snapshot: resumeAt === undefined };
}

/** An event as read, its id undefined when it has none. */
interface ReadEvent {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: unknown;
}

/**
 * Reads the stream to its end, which the service's stopping or the list's delete brings, and
 * replays it as a client does: the snapshot (unless it resumed), then each change. After each
 * change the replayed list must be the model's, a rename must carry the title the model then
 * had, and each change's id must be the version it made where the model knows it. A deleted
 * list's stream then tells `list-deleted`, without an id; no other event may be left over.
 * Waiting for the end rather than for each event makes a lost event fail at once, instead of
 * at a read's deadline.
 */
export async function expectReplay(
  { stream, list, from, snapshot }: Subscription,
  name: string,
): Promise<void> {
  const events = await eventsToEnd(stream);
  let replayed: readonly TodoJson[] = list.log.itemsAt(from);
  if (snapshot) {
    const first = events.shift();
    const version = list.log.versionAt(from);
    expect({ event: first?.event, id: first?.id }, `the first event of ${name}`).toEqual({
      event: 'snapshot',
      id: version === undefined ? expect.any(String) : unquoted(version),
    });
    replayed = first!.data as TodoJson[];
    expect(replayed, `the snapshot of ${name}`).toEqual(list.log.itemsAt(from));
  }
  const changes = list.log.changes.slice(from);
  changes.forEach(({ change, command, items, version }, index) => {
    const event = events[index];
    const step = `change ${index + 1} of ${changes.length} on ${name}, ${command}`;
    if (event === undefined) expect.fail(`the stream ended before ${step}`);
    const id = version === undefined ? expect.any(String) : unquoted(version);
    if (change.type === 'list-renamed') {
      expect(event, step).toEqual({ id, event: 'list-renamed', data: change.list });
      return;
    }
    expect({ id: event.id, event: event.event }, step).toEqual({ id, event: change.type });
    replayed = replay(replayed, event);
    expect(replayed, `the list replayed up to ${step}`).toEqual(items);
  });
  const ending = list.deletedAs && { id: undefined, event: 'list-deleted', data: list.deletedAs };
  expect(events.slice(changes.length), `the events after the last change on ${name}`).toEqual(
    ending ? [ending] : [],
  );
}

async function eventsToEnd(stream: StreamReader): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  for (;;) {
    const block = await stream.nextBlock();
    if (block === undefined) return events;
    if (!('data' in block)) continue;
    events.push({ id: block.id, event: block.event, data: JSON.parse(block.data) });
  }
}

function replay(list: readonly TodoJson[], { event, data }: ReadEvent): TodoJson[] {
  const todo = data as TodoJson;
  switch (event) {
    case 'created':
      return [...list, todo];
    case 'updated':
      return list.map((item) => (item.id === todo.id ? todo : item));
    case 'deleted':
      return list.filter((item) => item.id !== todo.id);
    default:
      throw new Error(`an event of a type the contract does not name: ${event}`);
  }
}
