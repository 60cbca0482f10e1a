import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

/**
 * `fetch` from the local address `localAddress` (any of 127.0.0.0/8 on Linux), so that one test
 * acts as several clients: the server sees the connection come from that address. The body,
 * if any, is a string or bytes; the answer's body streams, as an event stream needs.
 */
export function fetchFrom(
  localAddress: string,
  url: URL,
  init: RequestInit = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(new Headers(init.headers));
    // A connection of its own, which an abort closes, as a client that leaves closes it.
    const options = { method: init.method ?? 'GET', headers, localAddress, agent: false };
    const sent = httpRequest(url, options, (got) => {
      const answerHeaders = new Headers();
      for (const [name, value] of Object.entries(got.headers)) {
        for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
      }
      const status = got.statusCode!;
      const empty = status === 204 || status === 304 || init.method === 'HEAD';
      const body = empty ? null : (Readable.toWeb(got) as ReadableStream<Uint8Array>);
      if (empty) got.resume();
      resolve(new Response(body, { status, headers: answerHeaders }));
    });
    sent.on('error', reject);
    init.signal?.addEventListener('abort', () => {
      sent.destroy(new Error('aborted'));
      sent.socket?.destroy();
    });
    sent.end(init.body as string | Uint8Array | undefined);
  });
}
