/**
 * `body`, except that it ends where `body` fails. @whatwg-node/server pipes a response body
 * into the socket without an error handler, so a body that fails would crash the process; an
 * event stream fails on purpose when it drops a client that fell too far behind, and that
 * client should see its stream end, reconnect and resume.
 */
export function endingOnError(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        } catch {
          controller.close();
        }
      },
      // The client left: let the handler know, so it forgets the stream.
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
