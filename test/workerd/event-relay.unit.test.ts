// Type-checked with the workers types (tsconfig.worker.json), as the module it tests is.
import { createParser } from 'eventsource-parser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { relayEvents } from '../../src/hosts/workerd/event-relay.ts';
import { EventSockets } from '../../src/hosts/workerd/event-sockets.ts';
import {
  RELAY_QUEUE_BYTES,
  SEND_WINDOW_BYTES,
  STREAM_BEHIND,
  STREAM_ENDED,
} from '../../src/hosts/workerd/relay-protocol.ts';
import { DEFAULT_APP_CONFIG } from '../../src/config.ts';
import type { LiveList } from '../../src/lists/live-list.ts';
import {
  EventClient,
  MAX_BACKLOG_BYTES,
  StreamTally,
  type EventChannel,
  type StreamContext,
  type StreamedList,
} from '../../src/live/event-channel.ts';
import { EventStreams } from '../../src/live/event-streams.ts';
import { StubListObject, type StubEvent, type StubOptions } from './stub-list-object.ts';

describe('the worker relaying a stream', () => {
  const leftEarly = async () => {
    const closedWith: number[] = [];
    let freed = 0;
    const socket = {
      accept: () => {},
      addEventListener: () => {},
      close: (code: number) => closedWith.push(code),
    };
    const answer = { webSocket: socket, headers: new Headers() };
    const object = { fetch: async () => answer } as unknown as DurableObjectStub;
    const request = new Request('http://localhost/api/sse', { signal: AbortSignal.abort() });
    await relayEvents(
      request,
      () => object,
      15,
      () => (freed += 1),
    );
    return { closedWith, freed };
  };

  it('closes the socket to the object when the client left before it came', async () => {
    expect((await leftEarly()).closedWith).toEqual([STREAM_ENDED]);
  });

  it('frees the client’s place once when the client left before the stream came', async () => {
    expect((await leftEarly()).freed).toBe(1);
  });

  it('frees the client’s place when its list’s object cannot be asked at all', async () => {
    let freed = 0;
    const unreachable = () => {
      throw new Error('the object was reset');
    };
    const request = new Request('http://localhost/api/sse');
    await expect(relayEvents(request, unreachable, 15, () => (freed += 1))).rejects.toThrow();
    expect(freed).toBe(1);
  });
});

const change = (seq: number, size: number): StubEvent => ({
  id: `r.${seq}`,
  event: 'created',
  data: `{"seq":${seq},"title":"${'t'.repeat(size)}"}`,
});

/**
 * A list whose snapshot and one change are each cut into three messages, after a change alone
 * and a batch of five written at once that spans three messages.
 */
const EVENTS = [
  { id: 'r.0', event: 'snapshot', data: `[{"title":"${'s'.repeat(2_500_000)}"}]` },
  change(1, 10),
  ...[2, 3, 4, 5, 6].map((seq) => change(seq, 400_000)),
  change(7, 2_500_000),
  change(8, 10),
];
const WRITES = [[1], [2, 3, 4, 5, 6], [7], [8]];

/** Where in the object's messages its first socket drops: after the one `holding` holds. */
const dropAfter =
  (holding: string): StubOptions['cut'] =>
  (messages, opening) => {
    if (opening > 0) return undefined;
    const head = (message: Uint8Array) => new TextDecoder().decode(message.subarray(0, 100));
    return messages.findIndex((message) => head(message).includes(holding)) + 1;
  };

/** What a client is sent on one connection, and whether its stream ended. */
async function connect(
  object: StubListObject,
  lastEventId: string | undefined,
  heartbeatSeconds: number,
) {
  const leave = new AbortController();
  const headers: Record<string, string> =
    lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
  const request = new Request('http://localhost/api/sse', { headers, signal: leave.signal });
  const response = await relayEvents(
    request,
    () => object.stub,
    heartbeatSeconds,
    () => {},
  );
  const reader = response.body!.getReader();
  let text = '';
  let ended = false;
  const decoder = new TextDecoder();
  void (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
    }
    ended = true;
  })().catch(() => {});
  await vi.advanceTimersByTimeAsync(60_000);
  leave.abort();
  return { text, ended };
}

/**
 * The events a client's EventSource dispatches, reconnecting with its last id whenever its
 * stream ends: an event the stream ended in the middle of is dropped, as EventSource drops it.
 */
async function eventsReceived(
  object: StubListObject,
  heartbeatSeconds = 3600,
): Promise<StubEvent[]> {
  const received: StubEvent[] = [];
  for (let connection = 0; connection < 3; connection += 1) {
    const { text, ended } = await connect(object, received.at(-1)?.id, heartbeatSeconds);
    const parser = createParser({
      onEvent: ({ id = '', event = 'message', data }) => received.push({ id, event, data }),
    });
    parser.feed(text);
    if (!ended) break;
  }
  return received;
}

/** Events as short lines, so that a failure shows which came and how. */
const summary = (events: readonly StubEvent[]) =>
  events.map(({ id, event, data }) => `${id} ${event} ${data.length} ${data.slice(0, 12)}`);

describe('the worker relaying a stream whose object drops it', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([
    ['in the middle of the snapshot', 'event: snapshot'],
    ['between two events', 'id: r.1\n'],
    ['in the middle of a write that spans several messages', 'id: r.2\n'],
    ['in the middle of an event cut in pieces', 'id: r.7\n'],
  ])('gives the client every event once, whole, in order: dropped %s', async (_, holding) => {
    const object = new StubListObject({ events: EVENTS, writes: WRITES, cut: dropAfter(holding) });
    expect(summary(await eventsReceived(object))).toEqual(summary(EVENTS));
  });

  it('never puts a heartbeat inside an event that comes in pieces', async () => {
    const object = new StubListObject({
      events: EVENTS,
      writes: WRITES,
      cut: () => undefined,
      gapMs: 1500,
    });
    expect(summary(await eventsReceived(object, 1))).toEqual(summary(EVENTS));
  });
});

describe('the worker relaying a large stream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A small snapshot and change, then sixteen large changes written at once: 12.8 MB. */
  const LARGE = [
    { id: 'r.0', event: 'snapshot', data: '[]' },
    ...Array.from({ length: 17 }, (_, at) => change(at + 1, at === 0 ? 10 : 800_000)),
  ];
  const largeWrite = { events: LARGE, writes: [[1], LARGE.slice(2).map((_, at) => at + 2)] };

  it('gives a client that reads a replay larger than its queue, after a reconnect, every event once', async () => {
    const object = new StubListObject({ ...largeWrite, cut: dropAfter('id: r.1\n'), gapMs: 0 });
    expect(summary(await eventsReceived(object))).toEqual(summary(LARGE));
  });

  it('gives a client its object dropped for falling behind every event once, as it resumes', async () => {
    const cut = dropAfter('id: r.3\n');
    const object = new StubListObject({ ...largeWrite, cut, cutCode: STREAM_BEHIND });
    expect(summary(await eventsReceived(object))).toEqual(summary(LARGE));
  });

  it('ends the stream of a client that never reads once more than its queue waits for it', async () => {
    const object = new StubListObject({ ...largeWrite, cut: () => undefined, ignoresWindow: true });
    const request = new Request('http://localhost/api/sse');
    const response = await relayEvents(
      request,
      () => object.stub,
      3600,
      () => {},
    );
    await vi.advanceTimersByTimeAsync(60_000);
    const reader = response.body!.getReader();
    let read = 0;
    const ended = (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        read += chunk.value.byteLength;
      }
    })().then(
      () => 'ended',
      () => 'cut',
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect([object.sockets[0]!.closedWith, await ended, read < RELAY_QUEUE_BYTES]).toEqual([
      STREAM_ENDED,
      'cut',
      true,
    ]);
  });
});

describe('the worker relaying a stream whose object fails on every opening', () => {
  /** An object that sends each opening and then drops the socket. */
  const failing = () =>
    new StubListObject({
      events: [{ id: 'r.0', event: 'snapshot', data: '[]' }],
      writes: [],
      cut: (messages) => messages.length,
    });
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens it at most four times in any second', async () => {
    const object = failing();
    const leave = new AbortController();
    const request = new Request('http://localhost/api/sse', { signal: leave.signal });
    await relayEvents(
      request,
      () => object.stub,
      3600,
      () => {},
    );
    const perSecond: number[] = [];
    for (let second = 0; second < 30 && object.openedAt.length < 100; second += 1) {
      const before = object.openedAt.length;
      await vi.advanceTimersByTimeAsync(1000);
      perSecond.push(object.openedAt.length - before);
    }
    leave.abort();
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(4);
  });

  it('ends the stream cleanly after six failed reopenings in a row', async () => {
    const object = failing();
    const { ended } = await connect(object, undefined, 3600);
    expect([ended, object.openedAt.length]).toEqual([true, 7]);
  });

  it('sends the client its heartbeat while it waits, and nothing else', async () => {
    const { text } = await connect(failing(), undefined, 1);
    const pings = text.split(': ping\n\n');
    // The worker waits 6 s at least before it gives up: a beat each second.
    expect([pings.length - 1 >= 5, pings.join('')]).toEqual([
      true,
      'retry: 3000\n\nid: r.0\nevent: snapshot\ndata: []\n\n',
    ]);
  });
});

/** The object's end of a stream's socket: what was sent on it, and how it was closed. */
class ObjectSocket {
  readonly sent: Uint8Array[] = [];
  closedWith: number | undefined;
  attachment: unknown;
  send(message: Uint8Array): void {
    this.sent.push(message);
  }
  close(code: number): void {
    this.closedWith ??= code;
  }
  serializeAttachment(value: unknown): void {
    this.attachment = value;
  }
  deserializeAttachment(): unknown {
    return this.attachment;
  }
  /** What was sent, as text, and how many bytes. */
  get text(): string {
    return this.sent.map((message) => new TextDecoder().decode(message)).join('');
  }
  get sentBytes(): number {
    return this.sent.reduce((total, message) => total + message.byteLength, 0);
  }
}

describe('the object sending a stream', () => {
  const SNAPSHOT = `retry: 3000\n\nid: r.0\nevent: snapshot\ndata: [${'x'.repeat(10_000_000)}]\n\n`;
  const CHANGE = `id: r.1\nevent: created\ndata: ${'c'.repeat(600_000)}\n\n`;
  const encoder = new TextEncoder();
  const adopted: EventChannel[] = [];
  const list = {
    store: { run: 'r' },
    viewId: async () => {},
    events: { adopt: (channel: EventChannel) => adopted.push(channel) },
  };

  /** The object's streams, with `sockets` those an earlier instance accepted. */
  const objectStreams = (sockets: ObjectSocket[] = []) => {
    const ctx = { acceptWebSocket: () => {}, getWebSockets: () => sockets };
    return new EventSockets(
      ctx as unknown as DurableObjectState,
      () => list as unknown as LiveList,
    );
  };

  /** A stream opened and answered with `opening`: the object's end of its socket, its client. */
  const opened = (streams: EventSockets, opening: string) => {
    const socket = new ObjectSocket();
    vi.stubGlobal(
      'WebSocketPair',
      class {
        0 = {};
        1 = socket;
      },
    );
    const channel = streams.open(opening.length + MAX_BACKLOG_BYTES);
    const client = new EventClient(channel, undefined, () => {});
    client.send(encoder.encode(opening));
    channel.respond({});
    return { socket, client };
  };

  beforeEach(() => {
    adopted.length = 0;
    // Node's Response refuses the status 101 the object answers with.
    vi.stubGlobal(
      'Response',
      class {
        constructor(
          readonly body: unknown,
          readonly init: object,
        ) {}
      },
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a stream no further ahead of what its client took than the window', () => {
    const { socket } = opened(objectStreams(), SNAPSHOT);
    expect(socket.sentBytes).toBeLessThanOrEqual(SEND_WINDOW_BYTES);
  });

  it('sends the rest as the worker says its client took it, every byte once, in order', () => {
    const streams = objectStreams();
    const { socket } = opened(streams, SNAPSHOT);
    for (let told = 0; told < socket.sentBytes;) {
      const taken = socket.sentBytes - told;
      told = socket.sentBytes;
      streams.received(socket as unknown as WebSocket, String(taken));
    }
    expect(socket.text === SNAPSHOT).toBe(true);
  });

  it('closes with the code that drops its client a stream with more than 1 MiB waiting', () => {
    const { socket, client } = opened(objectStreams(), 'retry: 3000\n\n');
    const change = encoder.encode(CHANGE);
    // All the window holds, and one change that waits.
    for (let sent = 0; sent <= SEND_WINDOW_BYTES; sent += change.byteLength) client.send(change);
    const closedEarly = socket.closedWith;
    client.send(change);
    expect([closedEarly, socket.closedWith]).toEqual([undefined, STREAM_BEHIND]);
  });

  it('ends, once its object has woken, a stream that had bytes waiting when it left memory', async () => {
    const waiting = opened(objectStreams(), SNAPSHOT).socket;
    const sent = opened(objectStreams(), CHANGE).socket;
    await objectStreams([waiting, sent]).adoptAll();
    expect([waiting.closedWith, sent.closedWith, adopted.length]).toEqual([
      STREAM_ENDED,
      undefined,
      1,
    ]);
  });

  it('puts the list’s own encoding of its items in a snapshot, not a copy', () => {
    const items = encoder.encode('[]');
    const written: Uint8Array[] = [];
    const channel = { write: (bytes: Uint8Array) => written.push(bytes) > 0, onGone: () => {} };
    const host = { openEventChannel: () => channel, writesHeartbeats: false };
    const context = { config: DEFAULT_APP_CONFIG, host, tally: new StreamTally() };
    const store = { version: 'r.0', subscribe: () => {} };
    const streamed = { store, itemsJson: () => items } as unknown as StreamedList;
    const streams = new EventStreams(streamed, context as unknown as StreamContext);
    streams.open(new Request('http://localhost/api/sse'), false);
    expect(written.includes(items)).toBe(true);
  });
});
