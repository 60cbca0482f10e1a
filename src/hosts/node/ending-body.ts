import { Readable } from 'node:stream';

/**
 * `body` as the Node stream @whatwg-node/server pipes into the socket, ending where `body`
 * fails. The adapter pipes a body with no error handler, so a body that fails would crash
 * the process; an event stream fails on purpose when it drops a client that fell too far
 * behind, and that client should see its stream end, reconnect and resume. Handing over a
 * Node stream also spares the adapter wrapping a web stream in one of its own.
 */
export function endingOnError(body: ReadableStream<Uint8Array>): Readable {
  const reader = body.getReader();
  return new Readable({
    read() {
      reader.read().then(
        ({ done, value }) => this.push(done ? null : value),
        () => this.push(null),
      );
    },
    // The client left: let the handler know, so it forgets the stream.
    destroy(error, callback) {
      reader.cancel(error ?? undefined).then(
        () => callback(null),
        () => callback(null),
      );
    },
  });
}
