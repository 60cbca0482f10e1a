import { expect } from 'vitest';
import type { TodoJson } from '../support/api.ts';
import type { SseEvent, StreamReader } from '../support/sse.ts';
import type { ModelChange } from './model.ts';

/** A change the model made, with its list right after, for comparing the stream's replay. */
export interface RecordedChange extends ModelChange {
  readonly command: string;
  readonly list: readonly TodoJson[];
}

/** An open event stream, and what the model says it must tell. */
export interface Subscription {
  readonly stream: StreamReader;
  /** The list when the stream opened: its snapshot. */
  readonly opening: readonly TodoJson[];
  /** The changes made since, in order. */
  readonly changes: RecordedChange[];
}

/**
 * Reads the stream to its end, which the service's stopping brings, and replays it as a
 * client does: the snapshot, then each change. After each change the replayed list must be
 * the model's, and no event may be left over. Waiting for the end rather than for each event
 * makes a lost event fail at once, instead of at a read's deadline.
 */
export async function expectReplay(
  { stream, opening, changes }: Subscription,
  name: string,
): Promise<void> {
  const [first, ...rest] = await eventsToEnd(stream);
  expect(first?.event, `the first event of ${name}`).toBe('snapshot');
  let replayed = replay([], first!);
  expect(replayed, `the snapshot of ${name}`).toEqual(opening);
  changes.forEach((change, index) => {
    const event = rest[index];
    const step = `change ${index + 1} of ${changes.length} on ${name}, ${change.command}`;
    if (event === undefined) expect.fail(`the stream ended before ${step}`);
    replayed = replay(replayed, event);
    expect(replayed, `the list replayed up to ${step}`).toEqual(change.list);
  });
  expect(rest.slice(changes.length), `events that no change made, on ${name}`).toEqual([]);
}

async function eventsToEnd(stream: StreamReader): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for (;;) {
    const block = await stream.nextBlock();
    if (block === undefined) return events;
    if (!('data' in block)) continue;
    events.push({ id: block.id!, event: block.event!, data: JSON.parse(block.data) });
  }
}

function replay(list: readonly TodoJson[], { event, data }: SseEvent): TodoJson[] {
  const todo = data as TodoJson;
  switch (event) {
    case 'snapshot':
      return data as TodoJson[];
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
