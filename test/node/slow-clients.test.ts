import { describe, expect, it } from 'vitest';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { RawConnection } from '../support/raw-client.ts';

/** The client's own pace: a byte or a line now and then, so no timeout of its own is met. */
const TRICKLE_MS = 50;

/** Writes `piece(i)` every TRICKLE_MS until the server closes the connection. */
async function trickle(connection: RawConnection, piece: (i: number) => string): Promise<void> {
  let i = 0;
  const timer = setInterval(() => connection.write(piece(i++)), TRICKLE_MS);
  await connection.closed;
  clearInterval(timer);
}

// Timeouts short enough to watch fire, yet long enough that the well-behaved requests around
// them never meet them on a loaded machine.
describe('the Node host and clients that trickle', () => {
  const running = useNodeServer({ server: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 } });

  it('cuts a client that trickles its headers (slowloris) with 408, and keeps serving', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    connection.write('GET /api/todos HTTP/1.1\r\nHost: x\r\n');
    // Each line is a complete header, so the headers are never done, yet never idle.
    await trickle(connection, (i) => `X-Slow-${i}: a\r\n`);
    expect(connection.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });

  it('cuts a body that never ends with 408, storing nothing', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    connection.write(
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nd\r\n{"title":"a"}\r\n',
    );
    // A space a chunk: valid JSON whitespace, and far too slow ever to reach the size limit.
    await trickle(connection, () => '1\r\n \r\n');
    expect(connection.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});

describe('the Node host and a keep-alive client that goes quiet', () => {
  const KEEP_ALIVE_MS = 500;
  const running = useNodeServer({ server: { keepAliveTimeoutMs: KEEP_ALIVE_MS } });

  it('closes the connection once it has been idle for server.keepAliveTimeoutMs', async () => {
    const connection = await RawConnection.open(running().url);
    connection.write('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n');
    await connection.until((text) => text.endsWith('Hello, world!'));
    const answered = performance.now();
    await connection.closed;
    // Node waits a second more than the setting, so that a client that reuses a connection
    // just before the advertised timeout does not meet a closed one. The default, 5 s, would
    // not have closed it by the upper bound; timers fire late, never early.
    const idle = performance.now() - answered;
    expect([idle > KEEP_ALIVE_MS / 2, idle < KEEP_ALIVE_MS + 3500]).toEqual([true, true]);
    expect(connection.text).toMatch(/^HTTP\/1\.1 200 [^]*Hello, world!$/);
  });
});
