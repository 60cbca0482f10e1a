import { once } from 'node:events';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useNodeServer } from '../support/node-server.ts';
import { RawConnection } from '../support/raw-client.ts';
import { sequenceOf } from '../support/sse.ts';

/** The longest title allowed, 4 bytes a character: each change's event is about 4 KB. */
const TITLE = '\u{1F331}'.repeat(1000);
const BATCH = 50;
/** Node's own buffer for a response; beyond it the stream's queue takes what is written. */
const NODE_BUFFER_BYTES = 64 * 1024;

async function openRawStream(url: string): Promise<RawConnection> {
  const connection = await RawConnection.open(url);
  connection.write('GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
  await connection.until((text) => text.includes('event: snapshot'));
  return connection;
}

const createdIds = (text: string) =>
  [...text.matchAll(/^id: (\S+)\nevent: created\n/gm)].map((match) => sequenceOf(match[1]!));

describe("the Node host's event streams on the wire", () => {
  const running = useNodeServer({ sse: { heartbeatSeconds: 1 } });

  it('writes each heartbeat whole, as one chunk of the body', async () => {
    const connection = await openRawStream(running().url);
    const text = await connection.until((received) => received.includes(': ping'));
    connection.socket.destroy();
    // The chunk's size, 8, covers the comment and the blank line that ends it.
    expect(text).toContain('\r\n8\r\n: ping\n\n\r\n');
  });

  it('sends every change in order to a client that stops reading for a while', async () => {
    const connected = once(running().server, 'connection') as Promise<[Socket]>;
    const connection = await openRawStream(running().url);
    const [serverSide] = await connected;
    connection.socket.pause();
    const create = () =>
      fetch(`${running().url}/api/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: TITLE }),
      }).then((response) => response.status);
    const createBatch = async () => {
      const statuses = await Promise.all(Array.from({ length: BATCH }, create));
      expect(statuses.filter((status) => status !== 201)).toEqual([]);
    };
    // Until the kernel holds all it will (megabytes on loopback) and Node buffers the rest:
    // from there on the stream queues the changes itself, and sends them as the socket drains.
    let changes = 0;
    while (serverSide.writableLength < NODE_BUFFER_BYTES && changes < 5000) {
      await createBatch();
      changes += BATCH;
    }
    await createBatch();
    changes += BATCH;
    connection.socket.resume();
    const deadline = new AbortController();
    const stalled = delay(20000, undefined, { signal: deadline.signal }).then(
      () => {
        const got = createdIds(connection.text).length;
        throw new Error(`the stream stopped after ${got} of ${changes} changes`);
      },
      () => '',
    );
    const text = await Promise.race([
      connection.until((received) => createdIds(received).length >= changes),
      stalled,
    ]).finally(() => deadline.abort());
    connection.socket.destroy();
    const ids = createdIds(text);
    expect(ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1)).toBe(true);
  }, 60000);
});
