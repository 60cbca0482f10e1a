import { HttpProblem } from './problem.ts';

/** A request body's JSON object, its keys as the client sent them. */
export type JsonObject = Record<string, unknown>;

export function requireJsonMediaType(request: Request): void {
  const declared = request.headers.get('content-type');
  if (isJson(declared)) return;
  throw new HttpProblem(
    415,
    declared
      ? `Content-Type "${declared}" is not accepted; send the body as application/json.`
      : 'The request has no Content-Type; send the body as application/json.',
  );
}

function isJson(contentType: string | null): boolean {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

/** The body's JSON object, or undefined when it carries no byte, whatever it declares. */
export async function readOptionalJsonObject(
  request: Request,
  maxBytes: number,
  contentLengthIsExact: boolean,
): Promise<JsonObject | undefined> {
  const declared = request.headers.get('content-length');
  if (request.body === null || declared === '0') return undefined;
  if (!isJson(request.headers.get('content-type'))) {
    // A body of unknown length may still turn out to be empty: only reading its first byte tells.
    if (declared === null && (await firstBytes(request.body.getReader(), 1)).length === 0) {
      return undefined;
    }
    requireJsonMediaType(request);
  }
  const bytes = await readAtMost(request, maxBytes, contentLengthIsExact);
  return bytes.byteLength === 0 ? undefined : parseJsonObject(bytes);
}

export async function readJsonObject(
  request: Request,
  maxBytes: number,
  contentLengthIsExact: boolean,
): Promise<JsonObject> {
  return parseJsonObject(await readAtMost(request, maxBytes, contentLengthIsExact));
}

// ignoreBOM is the default; the workers types require it spelled out.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function parseJsonObject(bytes: Uint8Array): JsonObject {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw new HttpProblem(400, 'The body is not valid UTF-8.');
  }
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
  return value as JsonObject;
}

/** The client went away or broke the framing: its failure, not the server's. */
function bodyEndedEarly(): never {
  throw new HttpProblem(400, 'The body ended before it was complete.');
}

function tooLarge(maxBytes: number): HttpProblem {
  return new HttpProblem(413, `The body is larger than the limit of ${maxBytes} bytes.`);
}

// At most `maxBytes` of the body, else 413: a declared Content-Length is believed only when too
// large. With `contentLengthIsExact` it is read whole, skipping a web stream reader, which on Node
// cost a third of a create. A body past the limit is left unread (docs/dependencies.md).
async function readAtMost(
  request: Request,
  maxBytes: number,
  contentLengthIsExact: boolean,
): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (contentLengthIsExact && declared !== null) {
    // bytes(), not new Uint8Array(arrayBuffer()): the adapter's body is a Buffer already, and
    // wrapping it would copy every byte once more.
    const bytes = await request.bytes().catch(bodyEndedEarly);
    if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (request.body === null) return new Uint8Array(0);
  const bytes = await firstBytes(request.body.getReader(), maxBytes + 1);
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  return bytes;
}

/** The chunks as one array; the one chunk itself when there is only one. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/** The first `most` bytes of a body (all of it if shorter), else 400 if it breaks first. */
export async function firstBytes(source: ReadableStreamDefaultReader<Uint8Array>, most: number) {
  const chunks: Uint8Array[] = [];
  for (let read = 0; read < most;) {
    const { done, value } = await source.read().catch(bodyEndedEarly);
    if (done) break;
    chunks.push(value.subarray(0, most - read));
    read += value.byteLength;
  }
  return concatBytes(chunks);
}

/** Reads the rest of a body, up to `limit` bytes: whether nothing is left to read. */
export async function readRest(source: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
  try {
    for (let read = 0; read <= limit;) {
      const { done, value } = await source.read();
      if (done) return true;
      read += value.byteLength;
    }
    return false;
  } catch {
    return true; // The client went away: there is nothing left to read.
  }
}
