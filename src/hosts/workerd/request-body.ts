import { bodyEndedEarly } from '../../http/body.ts';
import { HttpProblem } from '../../http/problem.ts';
import { requestIdOf } from '../../http/request.ts';
import { Responses } from '../../http/responses.ts';

/** How much of a refused body is still read: the most Cloudflare passes a worker (Free, Pro). */
const READ_REST_LIMIT_BYTES = 100 * 1024 * 1024;

/**
 * Answers `request` with `answer`, which is given at most `passAtMost` bytes of its body, and
 * reads the rest of the body (up to `READ_REST_LIMIT_BYTES`) before the answer ends: workerd
 * resets a connection whose body is still arriving when the answer ends, and a client still
 * sending then loses the answer. A rest longer than `holdAtMost` is read while the answer's
 * status and body go out, not before: a body over the limit is refused as soon as it passes it.
 */
export async function answerAfterBody(
  request: Request,
  answer: (request: Request) => Promise<Response>,
  { passAtMost = Infinity, holdAtMost = 0 } = {},
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
  const holds = Number(request.headers.get('content-length')) <= holdAtMost;
  if ((holds && (await readRest(source, holdAtMost))) || response.body === null) return response;
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const sent = response.body.pipeTo(writable, { preventClose: true }).catch(() => {});
  void sent.then(async () => {
    if (!(await readRest(source, READ_REST_LIMIT_BYTES))) await source.cancel().catch(() => {});
    await writable.close().catch(() => {});
  });
  return new Response(readable, response);
}

/** Reads the rest of a body, up to `limit` bytes: whether nothing is left to read. */
async function readRest(source: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  try {
    for (let read = 0; read <= limit;) {
      const { done, value } = await source.read();
      if (done) return true;
      read += value.byteLength;
    }
    return false;
  } catch {
    // The client went away; there is nothing left to read.
    return true;
  }
}

/**
 * `request` answered by `object`, its body read here and passed whole: a body piped on would
 * reach the object as complete when its client goes away ("Network connection lost" logged
 * twice, and the cut body stored), and break when the object answers without reading it.
 */
export async function bodyToObject(
  request: Request,
  object: DurableObjectStub,
  maxBodyBytes: number,
): Promise<Response> {
  // A body declared too long is refused by its length alone: none of it is waited for.
  const tooLong = Number(request.headers.get('content-length')) > maxBodyBytes;
  try {
    const body =
      request.body && !tooLong ? await request.arrayBuffer().catch(bodyEndedEarly) : null;
    return await object.fetch(new Request(request, { body }));
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    return new Responses(Response, requestIdOf(request)).problem(error, true);
  }
}
