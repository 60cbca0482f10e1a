import { describe, expect, it } from 'vitest';
import { listState, sendJson, type ProblemJson } from '../support/api.ts';
import { useService, type TestHost, type TestService } from '../support/hosts.ts';
import { parseResponses, RawConnection, rawCreate } from '../support/raw-client.ts';

/**
 * What a host's own HTTP layer answers where the service never sees the request, or sees it
 * cut: the Node host's, workerd's, or the proxy `wrangler dev` puts in front of workerd.
 */
export interface WireAnswers {
  /** A body shorter than its Content-Length whose client then ends its side. */
  readonly cutBody: number;
  /** A chunk size that is not hexadecimal. */
  readonly badChunkSize: number;
  /** A create with both `Transfer-Encoding: chunked` and a `Content-Length`. */
  readonly bothLengths: number;
  /** Lines the host itself logs for each request whose client went away mid-body. */
  readonly linesPerCutBody: number;
  /**
   * Whether the rest of a body over the limit is read after the 413 has gone out, the
   * connection kept: workerd resets one whose body is still arriving. The Node host closes it.
   */
  readonly readsPastLimit: boolean;
}

/** The Node host: its handler reads every body, and answers a cut one with 400. */
export const NODE_WIRE: WireAnswers = {
  cutBody: 400,
  badChunkSize: 400,
  bothLengths: 400,
  linesPerCutBody: 0,
  readsPastLimit: false,
};

/** workerd on its own (Miniflare): it takes a body framed twice by its chunks. */
export const WORKERD_WIRE: WireAnswers = { ...NODE_WIRE, bothLengths: 201, readsPastLimit: true };

/**
 * `wrangler dev`: its proxy answers a request whose body broke with its own 500 ("Error:
 * Network connection lost."), and logs one line for it, before the worker's answer can go out.
 */
export const WRANGLER_DEV_WIRE: WireAnswers = {
  cutBody: 500,
  badChunkSize: 500,
  bothLengths: 201,
  linesPerCutBody: 1,
  readsPastLimit: true,
};

/** The line `wrangler dev`'s proxy logs for a request whose client went away. */
const PROXY_LOST_CLIENT =
  /Error inside ProxyWorker \(the affected request failed; the dev server continues\): \S+ \S+ \(failed after 1 attempt\): Network connection lost\./;

const CLIENTS = 20;
const HEAD = 'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';

/** Sends `request` on a connection of its own; the answers received until the server closed. */
async function rawAnswers(service: TestService, request: string | Uint8Array, end = false) {
  const connection = await RawConnection.open(service.origin!);
  connection.write(request);
  if (end) connection.socket.end();
  await connection.closed;
  return parseResponses(connection.bytes).map((response) => response.status);
}

/** Far more than the sockets between a client and the service hold. */
const OFFERED = 32 * 1024 * 1024;

/**
 * A create whose chunked body is `offered` bytes, written as fast as the server takes it, then
 * a GET: the answers, and how much of the body had gone out when the first answer came.
 */
async function floodedCreate(service: TestService, offered: number) {
  const frame = Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`);
  const connection = await RawConnection.open(service.origin!);
  let sent = 0;
  let sentWhenAnswered = Infinity;
  connection.socket.once('data', () => (sentWhenAnswered = sent));
  const pump = () => {
    while (!connection.socket.destroyed && sent < offered) {
      sent += frame.length;
      if (!connection.write(frame)) return void connection.socket.once('drain', pump);
    }
    const get = 'GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    if (!connection.socket.destroyed) connection.write(`0\r\n\r\n${get}`);
  };
  connection.write(`${HEAD}Transfer-Encoding: chunked\r\n\r\nd\r\n{"title":"a"}\r\n`);
  pump();
  await connection.closed;
  const statuses = parseResponses(connection.bytes).map((response) => response.status);
  return { statuses, sentWhenAnswered };
}

/**
 * Waits until the host has logged `expected` lines of its proxy for clients that went away,
 * and fails on any other failure it logged: nothing uncaught, no connection lost in the worker.
 */
async function expectLoggedOnly(service: TestService, expected: number): Promise<void> {
  if (service.newFailures === undefined) return;
  const lines: string[] = [];
  const proxyLines = () => {
    lines.push(...service.newFailures!());
    return lines.filter((line) => PROXY_LOST_CLIENT.test(line)).length;
  };
  await expect.poll(proxyLines).toBe(expected);
  expect(lines.filter((line) => !PROXY_LOST_CLIENT.test(line))).toEqual([]);
}

/**
 * Requests no well-behaved client sends, written byte by byte on raw connections, and floods:
 * each is answered as the host's HTTP layer allows (`wire`), stores nothing it should not,
 * leaves the service serving, and logs no failure of the service. Runs on the default list of
 * a host served over TCP.
 */
export function hostileInputSuite(host: TestHost, wire: WireAnswers): void {
  describe(`${host.name}: hostile input`, () => {
    hostileRequestsSuite(host, wire);
    droppedStreamsSuite(host);
  });
}

function hostileRequestsSuite(host: TestHost, wire: WireAnswers): void {
  describe('requests', () => {
    const api = useService(host);

    it('stores nothing from twenty clients that send part of a create and stop, and keeps serving', async () => {
      const before = await listState(api());
      const cut = rawCreate('{"title":"a"}', { contentLength: 100 });
      const statuses = await Promise.all(
        Array.from({ length: CLIENTS }, () => rawAnswers(api(), cut, true)),
      );
      expect(statuses).toEqual(Array(CLIENTS).fill([wire.cutBody]));
      expect(await listState(api())).toEqual(before);
      await expectLoggedOnly(api(), CLIENTS * wire.linesPerCutBody);
    });

    it('answers the declared bytes of a body longer than its Content-Length, then the rest with 400', async () => {
      const body = '{"title":"a"},"completed":true}';
      const request = rawCreate(body, { contentLength: 13, keepAlive: true });
      const statuses = await rawAnswers(api(), request);
      expect(statuses).toEqual([201, 400]);
      expect((await listState(api())).todos.map((todo) => todo.title)).toEqual(['a']);
    });

    it('refuses a chunk size that is not hexadecimal, storing nothing, and keeps serving', async () => {
      const before = await listState(api());
      const request = `${HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\n{"title":"a"}\r\n0\r\n\r\n`;
      expect(await rawAnswers(api(), request)).toEqual([wire.badChunkSize]);
      expect(await listState(api())).toEqual(before);
      await expectLoggedOnly(api(), wire.linesPerCutBody);
    });

    it('refuses a create whose Content-Length is over the limit with 413 before its body is sent', async () => {
      const connection = await RawConnection.open(api().origin!);
      connection.write(`${HEAD}Content-Length: 100000000\r\n\r\n{"title":`);
      const answer = await connection.until((text) => text.includes('\r\n\r\n'));
      connection.socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    });

    it('answers a body framed by both Transfer-Encoding and Content-Length as the host reads it', async () => {
      const framing = 'Transfer-Encoding: chunked\r\nContent-Length: 5\r\nConnection: close\r\n';
      const request = `${HEAD}${framing}\r\nd\r\n{"title":"a"}\r\n0\r\n\r\n`;
      expect(await rawAnswers(api(), request)).toEqual([wire.bothLengths]);
      const stored = wire.bothLengths === 201 ? ['a'] : [];
      expect((await listState(api())).todos.map((todo) => todo.title)).toEqual(stored);
    });

    it('refuses a chunked body far over the limit with 413 before it has all been sent', async () => {
      const before = await listState(api());
      const { statuses, sentWhenAnswered } = await floodedCreate(api(), OFFERED);
      expect(statuses).toEqual(wire.readsPastLimit ? [413, 200] : [413]);
      expect(sentWhenAnswered).toBeLessThan(OFFERED);
      expect(await listState(api())).toEqual(before);
    });

    it.each([
      ['one header of 1 MiB', `X-Big: ${'a'.repeat(1024 * 1024)}\r\n`],
      ['50000 headers', Array.from({ length: 50_000 }, (_, i) => `X-H${i}: a\r\n`).join('')],
    ])('refuses %s with 431, and keeps serving', async (_name, headers) => {
      const before = await listState(api());
      const request = `${HEAD}${headers}Content-Length: 13\r\n\r\n{"title":"a"}`;
      expect(await rawAnswers(api(), request)).toEqual([431]);
      expect(await listState(api())).toEqual(before);
    });

    it('answers a flood of 200 creates at once, each with 201, and stores each once', async () => {
      const titles = Array.from({ length: 200 }, (_, i) => `flood ${i}`);
      const statuses = await Promise.all(
        titles.map(async (title) => {
          const response = await api().fetch('/api/todos', sendJson('POST', { title }));
          await response.body?.cancel();
          return response.status;
        }),
      );
      expect(statuses).toEqual(titles.map(() => 201));
      const stored = (await listState(api())).todos.map((todo) => todo.title);
      expect(stored.sort()).toEqual(titles.sort());
    });

    it.each([
      ['JSON nested 100000 levels deep', 413, '['.repeat(100_000) + ']'.repeat(100_000)],
      ['a byte that is not UTF-8 inside a string', 400, Buffer.from('{"title":"a\xff"}', 'latin1')],
      ['a control character left raw inside a string', 400, '{"title":"a\u0001b"}'],
    ])('refuses %s with %i, storing nothing', async (_name, status, body) => {
      const before = await listState(api());
      const headers = { 'content-type': 'application/json' };
      const response = await api().fetch('/api/todos', { method: 'POST', headers, body });
      expect([response.status, ((await response.json()) as ProblemJson).status]).toEqual([
        status,
        status,
      ]);
      expect(await listState(api())).toEqual(before);
    });
  });
}

function droppedStreamsSuite(host: TestHost): void {
  describe('event streams, with a heartbeat every second', () => {
    // A stream is found gone when next written to: under wrangler dev, whose proxy does not
    // tell the worker that a client left before the stream began, only the heartbeat finds it.
    const streams = useService(host, { sse: { heartbeatSeconds: 1 } });

    it.each([
      ['once they open', (text: string) => text.includes('event: snapshot')],
      ['as soon as they ask', () => true],
    ])(
      'forgets fifty event streams whose clients go away %s, and keeps serving',
      async (_when, gone) => {
        await Promise.all(
          Array.from({ length: 50 }, async () => {
            const connection = await RawConnection.open(streams().origin!);
            connection.write('GET /api/sse HTTP/1.1\r\nHost: x\r\n\r\n');
            await connection.until(gone);
            connection.socket.resetAndDestroy();
          }),
        );
        const response = await streams().fetch('/api/todos', sendJson('POST', { title: 'after' }));
        expect(response.status).toBe(201);
        await expect.poll(async () => (await streams().streamStats()).openStreams).toBe(0);
        await expectLoggedOnly(streams(), 0);
      },
    );
  });
}
