import { once } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MISSING_ID, listState, type TodoJson } from '../support/api.ts';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { parseResponses, RawConnection, rawCreate } from '../support/raw-client.ts';

const LIMIT = 16384;

describe('the Node host and a Content-Length that lies', () => {
  const running = useNodeServer();

  it('answers a body shorter than its Content-Length with 400 when the client ends, storing nothing', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    connection.write(rawCreate('{"title":"a"}', { contentLength: 100 }));
    connection.socket.end();
    await connection.closed;
    expect(connection.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });

  it('judges a body longer than its Content-Length on the declared bytes, and stores it once', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    // The first 13 bytes are a whole create; the rest is taken as the next request, and is garbage.
    connection.write(
      rawCreate('{"title":"a"},"completed":true}', { contentLength: 13, keepAlive: true }),
    );
    await connection.closed;
    const after = await listState(serviceAt(running().url));
    expect(after.todos.slice(before.todos.length)).toEqual([
      { id: expect.any(String), title: 'a', completed: false },
    ]);
  });

  it('answers the declared request, then the bytes after it with 400, and closes', async () => {
    const connection = await RawConnection.open(running().url);
    connection.write(
      rawCreate('{"title":"a"},"completed":true}', { contentLength: 13, keepAlive: true }),
    );
    await connection.closed;
    const statuses = parseResponses(connection.bytes).map((response) => response.status);
    expect(statuses).toEqual([201, 400]);
  });
});

describe('the Node host and a chunked body far above the limit', () => {
  const running = useNodeServer();
  const FRAME = Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`);
  /** Far more than any socket buffer holds: a server that read it all would be seen to. */
  const OFFERED = 64 * 1024 * 1024;

  /** Writes chunks as fast as the server takes them, until it closes or all is offered. */
  const flood = (connection: RawConnection) => {
    let written = 0;
    const pump = () => {
      while (!connection.socket.destroyed && written < OFFERED) {
        written += FRAME.length;
        if (!connection.write(FRAME)) return void connection.socket.once('drain', pump);
      }
      if (!connection.socket.destroyed) connection.write('0\r\n\r\n');
    };
    connection.write(
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nd\r\n{"title":"a"}\r\n',
    );
    pump();
  };

  it('answers 413 and closes the connection', async () => {
    const before = await listState(serviceAt(running().url));
    const connection = await RawConnection.open(running().url);
    flood(connection);
    await connection.closed;
    const [response] = parseResponses(connection.bytes);
    expect([response?.status, response?.headers.connection]).toEqual([413, 'close']);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });

  it('stops reading the body soon after the limit', async () => {
    const accepted = once(running().server, 'connection') as Promise<[Socket]>;
    const connection = await RawConnection.open(running().url);
    const [serverSide] = await accepted;
    flood(connection);
    await connection.closed;
    // Node reads ahead of the handler, up to a socket read and a stream buffer: tens of KiB.
    expect(serverSide.bytesRead).toBeLessThan(LIMIT + 256 * 1024);
  });
});

describe('the Node host and pipelined requests', () => {
  const running = useNodeServer();

  it('answers requests sent in one write in the order they were sent', async () => {
    const connection = await RawConnection.open(running().url);
    connection.write(
      Buffer.concat([
        rawCreate('{"title":"first"}', { keepAlive: true }),
        Buffer.from(`GET /api/todos/${MISSING_ID} HTTP/1.1\r\nHost: x\r\n\r\n`),
        rawCreate('{"title":"second"}', { keepAlive: true }),
        Buffer.from('GET /hello?name=pipe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ]),
    );
    await connection.closed;
    const responses = parseResponses(connection.bytes);
    expect(responses.map(({ status, body }) => `${status} ${body}`)).toEqual([
      expect.stringMatching(/^201 \{.*"title":"first"/),
      expect.stringMatching(/^404 \{.*"status":404/),
      expect.stringMatching(/^201 \{.*"title":"second"/),
      '200 Hello, pipe!',
    ]);
  });

  it('answers a GET pipelined after a create with the list that holds it', async () => {
    const connection = await RawConnection.open(running().url);
    connection.write(
      Buffer.concat([
        rawCreate('{"title":"first"}', { keepAlive: true }),
        Buffer.from('GET /api/todos HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      ]),
    );
    await connection.closed;
    const [, list] = parseResponses(connection.bytes);
    expect((JSON.parse(list!.body) as TodoJson[]).map((todo) => todo.title)).toEqual(['first']);
  });

  it('stores pipelined creates once each, in the order they were sent', async () => {
    const connection = await RawConnection.open(running().url);
    connection.write(
      Buffer.concat(
        ['one', 'two', 'three'].map((title, i) =>
          rawCreate(JSON.stringify({ title }), { keepAlive: i < 2 }),
        ),
      ),
    );
    await connection.closed;
    const { todos } = await listState(serviceAt(running().url));
    expect(todos.map((todo) => todo.title)).toEqual(['one', 'two', 'three']);
  });
});
