import { once } from 'node:events';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DROPPED_CLIENT_GRACE_MS } from '../../src/live/event-channel.ts';
import { useNodeServer } from '../support/node-server.ts';
import { RawConnection } from '../support/raw-client.ts';
import { sequenceOf } from '../support/sse.ts';

/** The longest title allowed, 4 bytes a character: each change's event is about 4 KB. */
const TITLE = '\u{1F331}'.repeat(1000);
const BATCH = 50;
const MAX_CHANGES = 5000;
/** Long enough for megabytes of events on a loaded machine; a stalled stream fails sooner. */
const RECEIVE_SECONDS = 20;

interface PausedStream {
  readonly connection: RawConnection;
  /** The server's end of the connection. */
  readonly serverSide: Socket;
}

/** A raw `GET /api/sse` whose client has the snapshot and then stops reading. */
async function openPausedStream(url: string, server: Server): Promise<PausedStream> {
  const connected = once(server, 'connection') as Promise<[Socket]>;
  const connection = await RawConnection.open(url);
  onTestFinished(() => void connection.socket.destroy());
  const [serverSide] = await connected;
  connection.write('GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
  await connection.until((text) => text.includes('event: snapshot'));
  connection.socket.pause();
  return { connection, serverSide };
}

/** Creates BATCH items of about 4 KB each at once. */
async function createBatch(url: string): Promise<void> {
  const create = () =>
    fetch(`${url}/api/todos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: TITLE }),
    }).then((response) => response.status);
  const statuses = await Promise.all(Array.from({ length: BATCH }, create));
  expect(statuses.filter((status) => status !== 201)).toEqual([]);
}

/**
 * Creates items until the kernel holds all it will of the stream (megabytes on loopback) and
 * Node's buffer for the socket is full, then one batch more: from there on the stream queues
 * the changes itself. Returns how many items were created.
 */
async function fillPastTheSocket(url: string, { serverSide }: PausedStream): Promise<number> {
  let changes = 0;
  while (serverSide.writableLength < serverSide.writableHighWaterMark && changes < MAX_CHANGES) {
    await createBatch(url);
    changes += BATCH;
  }
  expect(serverSide.writableLength).toBeGreaterThanOrEqual(serverSide.writableHighWaterMark);
  await createBatch(url);
  return changes + BATCH;
}

/** Reads until `marker` arrives, checking only the newest bytes; fails if the stream stalls. */
async function readUntil(connection: RawConnection, marker: string): Promise<string> {
  let tail = '';
  const arrived = new Promise<void>((resolve, reject) => {
    const check = (chunk: Buffer) => {
      const recent = tail + chunk.toString('latin1');
      if (recent.includes(marker)) return done(resolve);
      tail = recent.slice(-marker.length);
    };
    const closed = () => done(() => reject(new Error(`the stream closed before ${marker}`)));
    const done = (settle: () => void) => {
      connection.socket.off('data', check).off('close', closed);
      settle();
    };
    connection.socket.on('data', check).once('close', closed);
  });
  connection.socket.resume();
  const deadline = new AbortController();
  const stalled = delay(RECEIVE_SECONDS * 1000, undefined, { signal: deadline.signal }).then(
    () => {
      throw new Error(`${marker} did not arrive within ${RECEIVE_SECONDS} s`);
    },
    () => {},
  );
  await Promise.race([arrived, stalled]).finally(() => deadline.abort());
  return connection.text;
}

const createdIds = (text: string) =>
  [...text.matchAll(/^id: (\S+)\nevent: created\n/gm)].map((match) => sequenceOf(match[1]!));
const inOrder = (ids: readonly number[]) => ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1);

describe("the Node host's event streams on the wire", () => {
  const running = useNodeServer({ sse: { heartbeatSeconds: 1 } });

  it('writes each heartbeat whole, as one chunk of the body', async () => {
    const connection = await RawConnection.open(running().url);
    onTestFinished(() => void connection.socket.destroy());
    connection.write('GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
    const text = await connection.until((received) => received.includes(': ping'));
    // The chunk's size, 8, covers the comment and the blank line that ends it.
    expect(text).toContain('\r\n8\r\n: ping\n\n\r\n');
  });

  it('sends every change in order to a client that stops reading for a while', async () => {
    const stream = await openPausedStream(running().url, running().server);
    const changes = await fillPastTheSocket(running().url, stream);
    const lastId = running().app.lists.defaultList!.store.version;
    const text = await readUntil(stream.connection, `id: ${lastId}\n`);
    const ids = createdIds(text);
    expect([ids.length, inOrder(ids)]).toEqual([changes, true]);
  }, 60000);

  it('sends what waits for a client before it ends the stream at shutdown', async () => {
    const stream = await openPausedStream(running().url, running().server);
    const changes = await fillPastTheSocket(running().url, stream);
    const stopped = running().close();
    // The last chunk of a chunked body: the stream ended cleanly, after everything.
    const text = await readUntil(stream.connection, '\r\n0\r\n\r\n');
    await stopped;
    const ids = createdIds(text);
    expect([ids.length, inOrder(ids), text.endsWith('\r\n0\r\n\r\n')]).toEqual([
      changes,
      true,
      true,
    ]);
  }, 60000);

  it('cuts the stream of a client it dropped once it has not read again for 10 s', async () => {
    const stream = await openPausedStream(running().url, running().server);
    await fillPastTheSocket(running().url, stream);
    // Past its backlog the client is dropped: the server ends its stream, and waits. The clock
    // starts before the batch that dropped it, so a slow answer cannot make the wait look short.
    let dropped = performance.now();
    for (let i = 0; i < MAX_CHANGES && running().app.events.openCount > 0; i += BATCH) {
      dropped = performance.now();
      await createBatch(running().url);
    }
    expect(running().app.events.openCount).toBe(0);
    await once(stream.serverSide, 'close');
    const waited = performance.now() - dropped;
    stream.connection.socket.resume();
    await stream.connection.closed;
    // Timers fire late, never early; a stream that ended cleanly ends with the last chunk.
    expect([
      waited >= DROPPED_CLIENT_GRACE_MS - 50,
      stream.connection.text.endsWith('\r\n0\r\n\r\n'),
    ]).toEqual([true, false]);
  }, 60000);
});
