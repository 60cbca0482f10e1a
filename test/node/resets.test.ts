import { EventEmitter, once } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/hosts/node/server.ts';
import { memoryListStores } from '../../src/lists/local-lists.ts';
import type { ListStores } from '../../src/storage/kept-lists.ts';
import { recordingLogger } from '../support/log-lines.ts';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { RawConnection } from '../support/raw-client.ts';

/**
 * The most items the default config allows, 10 MB of list: more than the sockets take at once
 * (2 MB did not fill them here) from a client that stops reading.
 */
function withFullList(): ListStores {
  return {
    ...memoryListStores,
    openDefault(options) {
      const store = memoryListStores.openDefault(options);
      for (let i = 0; i < 10_000; i += 1)
        void store.create({ title: `${i} ${'x'.repeat(1000)}`, completed: false });
      return store;
    },
  };
}

/**
 * Sends `request`, reads the first bytes of the answer, then stops reading until the server
 * has more queued than the socket takes: the answer is cut in the middle when the client resets.
 */
async function resetMidAnswer(running: RunningServer, request: string): Promise<void> {
  const accepted = once(running.server, 'connection') as Promise<[Socket]>;
  const connection = await RawConnection.open(running.url);
  const [serverSide] = await accepted;
  connection.write(request);
  await connection.until((text) => text.length > 0);
  connection.socket.pause();
  await expect.poll(() => serverSide.writableLength).toBeGreaterThan(0);
  connection.socket.resetAndDestroy();
  await connection.closed;
}

describe('the Node host and clients that reset the connection', () => {
  const running = useNodeServer({}, { stores: withFullList });

  it('keeps serving the list intact after a client resets in the middle of it', async () => {
    const before = await listState(serviceAt(running().url));
    await resetMidAnswer(running(), 'GET /api/todos HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });

  it('forgets an event client that resets in the middle of its snapshot', async () => {
    await resetMidAnswer(running(), 'GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => running().app.events.openCount).toBe(0);
  });

  it('keeps serving the list intact after an event client resets', async () => {
    const before = await listState(serviceAt(running().url));
    await resetMidAnswer(running(), 'GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});

describe('the Node host and a client that resets in the middle of its body', () => {
  let answered: EventEmitter;
  const running = useNodeServer(
    {},
    {
      logger: () => {
        answered = new EventEmitter();
        return recordingLogger('info', (line) => {
          if (line.msg === 'request') answered.emit('answered', line.status);
        }).logger;
      },
    },
  );

  it('stores nothing and keeps serving', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    const arrived = once(running().server, 'request');
    connection.write(
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 30\r\n\r\n{"title":"a"}',
    );
    await arrived;
    const handled = once(answered, 'answered');
    connection.socket.resetAndDestroy();
    // The handler has given up on the body: only now could a broken one have stored it.
    await handled;
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});
