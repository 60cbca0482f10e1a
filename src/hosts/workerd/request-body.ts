/** How much of a refused body is still read: the most Cloudflare passes a worker (Free, Pro). */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers `request` with `answer`, then reads the rest of the body (up to `READ_REST_LIMIT_BYTES`)
 * before the answer goes out: workerd resets a connection whose body is still arriving when the
 * response ends. `passAtMost`: `answer` is given only that much of the body.
 */
export async function answerAfterBody(
  request: Request,
  answer: (request: Request) => Promise<Response>,
  passAtMost = Infinity,
): Promise<Response> {
  if (request.body === null) return answer(request);
  const source = request.body.getReader();
  let passed = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = passed < passAtMost ? await source.read() : { done: true };
        if (done) return controller.close();
        const part = value.subarray(0, passAtMost - passed);
        passed += part.byteLength;
        controller.enqueue(part);
      },
    },
    { highWaterMark: 0 },
  );
  const response = await answer(new Request(request, { body }));
  try {
    for (let read = 0; read <= READ_REST_LIMIT_BYTES;) {
      const { done, value } = await source.read();
      if (done) return response;
      read += value.byteLength;
    }
    await source.cancel();
  } catch {
    // The client went away; there is nothing left to read.
  }
  return response;
}
