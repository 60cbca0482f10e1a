import { concatBytes } from './bytes.ts';
import { HttpProblem } from './problem.ts';

/** Refuses, with 415, a request whose body is not declared as JSON. */
export function requireJsonMediaType(request: Request): void {
  const declared = request.headers.get('content-type');
  const mediaType = declared?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw new HttpProblem(
      415,
      declared
        ? `Content-Type "${declared}" is not accepted; send the body as application/json.`
        : 'The request has no Content-Type; send the body as application/json.',
    );
  }
}

/**
 * Reads the body as a JSON object, refusing with 413 as soon as it passes `maxBytes`: the
 * declared Content-Length is believed only when it is too large, so a lying or absent one
 * never lets more than `maxBytes` be read.
 */
export async function readJsonObject(
  request: Request,
  maxBytes: number,
  contentLengthIsExact = false,
): Promise<Record<string, unknown>> {
  const text = decodeUtf8(await readAtMost(request, maxBytes, contentLengthIsExact));
  if (text.trim() === '') {
    throw new HttpProblem(
      400,
      'The body is empty; send a JSON object such as {"title":"Buy milk"}.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpProblem(400, `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpProblem(400, 'The body must be a JSON object, such as {"title":"Buy milk"}.');
  }
  return value as Record<string, unknown>;
}

/** The client went away or broke the framing: its failure, not the server's. */
function bodyEndedEarly(): never {
  throw new HttpProblem(400, 'The body ended before it was complete.');
}

function tooLarge(maxBytes: number): HttpProblem {
  return new HttpProblem(413, `The body is larger than the limit of ${maxBytes} bytes.`);
}

/**
 * With `contentLengthIsExact`, the host delivers a declared body by its length (an HTTP/1.1
 * parser does), so one within the limit is read whole; that skips a web stream
 * reader, which on Node cost a third of a create. Otherwise every chunk is counted.
 *
 * A body that passes the limit is left unread, not cancelled: what becomes of the rest is the
 * host's business. (On Node, @whatwg-node/server 0.13's cancel destroys the socket before the
 * 413 is written; the Node host answers with `Connection: close` instead.)
 */
async function readAtMost(
  request: Request,
  maxBytes: number,
  contentLengthIsExact: boolean,
): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (contentLengthIsExact && declared !== null) {
    const bytes = new Uint8Array(await request.arrayBuffer().catch(bodyEndedEarly));
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (request.body === null) return new Uint8Array(0);

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(bodyEndedEarly);
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) throw tooLarge(maxBytes);
    chunks.push(value);
  }
  return concatBytes(chunks);
}

// ignoreBOM is the default; the workers types require it spelled out.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new HttpProblem(400, 'The body is not valid UTF-8.');
  }
}
