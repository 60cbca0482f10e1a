import { Agent, get } from 'node:http';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startNodeServer, type RunningServer } from '../../src/hosts/node/server.ts';
import { nodeConfig, serviceAt, SILENT } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { exchange } from '../support/raw-client.ts';

describe('the Node host on the wire', () => {
  let running: RunningServer;
  beforeEach(async () => {
    running = await startNodeServer(nodeConfig({ server: { keepAliveTimeoutMs: 2000 } }), SILENT);
  });
  afterEach(() => running.close());

  it.each(['/../package.json', '/%2e%2e/package.json', '/public/../../package.json'])(
    'answers a raw request for %s with 404',
    async (path) => {
      const reply = await exchange(
        running.url,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 404 /);
      expect(reply).not.toContain('"name": "todo-fetch-service"');
    },
  );

  it.each(['a b', 'x:99999', '%zz'])(
    'answers a Host header of %j with 400 as problem+json, no stack',
    async (hostHeader) => {
      const reply = await exchange(
        running.url,
        `GET /api/todos HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`,
      );
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('application/problem+json');
      expect(reply).not.toMatch(/ at |node_modules|\.js/);
    },
  );

  it('answers a bad Host header with 400 after serving a good one', async () => {
    const good = `GET /api/todos HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
    expect(await exchange(running.url, good)).toMatch(/^HTTP\/1\.1 200 /);
    const reply = await exchange(
      running.url,
      `GET /api/todos HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('application/problem+json');
  });

  it('routes a path with dot segments as the path they resolve to', async () => {
    const reply = await exchange(
      running.url,
      `GET /api/x/../todos HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply.split('\r\n\r\n')[1]).toBe('[]');
  });

  it.each([1, 2])(
    'routes request %i with a Host holding a backslash by the path the URL parser finds',
    async (count) => {
      const request = `GET /api/todos HTTP/1.1\r\nHost: x\\api\r\nConnection: close\r\n\r\n`;
      let reply = '';
      for (let sent = 0; sent < count; sent += 1) reply = await exchange(running.url, request);
      // The URL parser ends the host at the backslash: the path is /api/api/todos.
      expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    },
  );

  it('answers a declared body over the limit with 413 and closes without reading it', async () => {
    const reply = await exchange(
      running.url,
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100000000\r\n\r\n{"title":',
    );
    const [head] = reply.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    // Only the 413 was sent: Node's own 408 for the unread body never follows it.
    expect(reply).not.toMatch(/HTTP\/1\.1 408 /);
  });

  it('tells a keep-alive client to close once shutdown has begun', async () => {
    const { hostname, port } = new URL(running.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closedSocket = new Promise((resolve) => socket.on('close', resolve));
    const arrived = once(running.server, 'request');
    socket.write(
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 13\r\n\r\n{"title":',
    );
    await arrived;
    const stopped = running.close();
    socket.write('"a"}');
    await Promise.all([closedSocket, stopped]);
    expect(received).toMatch(/^HTTP\/1\.1 201 /);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('advertises the configured keep-alive timeout', async () => {
    const agent = new Agent({ keepAlive: true });
    const keepAlive = await new Promise<unknown>((resolve, reject) =>
      get(`${running.url}/hello`, { agent }, (response) => {
        response.resume();
        resolve(response.headers['keep-alive']);
      }).on('error', reject),
    );
    agent.destroy();
    expect(keepAlive).toBe('timeout=2');
  });

  it('refuses request headers over the configured size with 431, and keeps serving', async () => {
    const before = await listState(serviceAt(running.url));
    const reply = await exchange(
      running.url,
      `POST /api/todos HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{"title":"a"}',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(await listState(serviceAt(running.url))).toEqual(before);
  });

  it("refuses chunk extensions over Node's limit with a bare 413, and keeps serving", async () => {
    const before = await listState(serviceAt(running.url));
    const reply = await exchange(
      running.url,
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Transfer-Encoding: chunked\r\n\r\nd;x=${'a'.repeat(20000)}\r\n{"title":"a"}\r\n0\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413 [^\r]*\r\nConnection: close\r\n\r\n$/);
    expect(await listState(serviceAt(running.url))).toEqual(before);
  });
});

// Timeouts short enough to watch fire, on a server of their own: the other tests must not
// meet them when the machine is slow.
describe("the Node host's request timeouts", () => {
  let running: RunningServer;
  beforeEach(async () => {
    running = await startNodeServer(
      nodeConfig({ server: { headersTimeoutMs: 300, requestTimeoutMs: 600 } }),
      SILENT,
    );
  });
  afterEach(() => running.close());

  it('cuts a client that never finishes its headers with 408, and keeps serving', async () => {
    const before = await listState(serviceAt(running.url));
    const reply = await exchange(running.url, 'GET /hello HTTP/1.1\r\nHost: x\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(await listState(serviceAt(running.url))).toEqual(before);
  });

  it('cuts a body shorter than its Content-Length with 408, storing nothing', async () => {
    const before = await listState(serviceAt(running.url));
    const reply = await exchange(
      running.url,
      'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title":"a"}',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(await listState(serviceAt(running.url))).toEqual(before);
  });
});

describe('the Node host and an event client that stops reading', () => {
  let running: RunningServer;
  beforeEach(async () => {
    running = await startNodeServer(nodeConfig(), SILENT);
  });
  afterEach(() => running.close());

  /** Changes enough to queue well over the 1 MiB a client may fall behind by. */
  const flood = async (url: string) => {
    const body = JSON.stringify({ title: 'x'.repeat(1000) });
    const create = () =>
      fetch(`${url}/api/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }).then((response) => response.arrayBuffer());
    while (running.app.events.openCount > 0) {
      await Promise.all(Array.from({ length: 50 }, create));
    }
  };

  it('ends its stream, and keeps serving, when it reads again after being dropped', async () => {
    const { hostname, port } = new URL(running.url);
    const socket = connect(Number(port), hostname, () =>
      socket.write('GET /api/sse HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    const ended = new Promise<string>((resolve, reject) => {
      let received = '';
      const stopReading = (chunk: string) => {
        received += chunk;
        if (!received.includes('event: snapshot')) return;
        socket.off('data', stopReading).pause();
        socket.on('data', (more: string) => (received += more));
      };
      socket.setEncoding('utf8').on('data', stopReading);
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    await expect.poll(() => running.app.events.openCount).toBe(1);
    await flood(running.url);
    socket.resume();
    // The stream ends with the last chunk of a chunked body, not with a reset.
    expect((await ended).endsWith('\r\n0\r\n\r\n')).toBe(true);
    expect((await fetch(`${running.url}/hello`)).status).toBe(200);
  }, 30000);
});
