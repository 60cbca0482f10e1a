/**
 * How much of a refused body is still read, so that its sender sees the answer: the largest
 * body Cloudflare passes to a worker on its Free and Pro plans (it answers 413 itself above
 * that). Read any less, and a body that goes on past it gets a reset instead of the answer;
 * under `wrangler dev`, whose proxy forwards each request to the worker, a 500 and a logged
 * "Network connection lost".
 */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers `request` with `answer`, passing the body on through a stream of its own, and reads
 * what the handler left unread (up to `READ_REST_LIMIT_BYTES`) before the answer goes out. workerd
 * resets a connection whose request body is still arriving when the response ends, so a client
 * streaming an oversized body would see ECONNRESET instead of the 413, and a body piped on to a
 * Durable Object breaks with "Network connection lost". The handler itself still decides after
 * at most `limits.maxBodyBytes`.
 *
 * With `passAtMost`, the stream passed on ends after that many bytes and the rest is read
 * here. The worker passes the object no more than its handler needs to refuse a body, so the
 * object can always read what it was given to the end: an object that stops reading a body
 * piped to it breaks the pipe just as one that never starts does.
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
  await readRest(source);
  return response;
}

async function readRest(source: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let read = 0;
  try {
    while (read <= READ_REST_LIMIT_BYTES) {
      const { done, value } = await source.read();
      if (done) return;
      read += value.byteLength;
    }
    await source.cancel();
  } catch {
    // The client went away; there is nothing left to read.
  }
}
