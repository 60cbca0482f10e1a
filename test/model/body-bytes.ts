import { MISSING_ID } from '../support/api.ts';
import type { BodySpec, IdField, JsonValue, Sending } from './spec.ts';

const encoder = new TextEncoder();

/** The bytes of a body as `send` describes it; `pathId` is what an `id` that repeats it holds. */
export function bodyBytes(send: Sending, limit: number, pathId?: string): Uint8Array {
  return padded(unpadded(send.body, pathId), send.size, limit);
}

function padded(bytes: Uint8Array, size: Sending['size'], limit: number): Uint8Array {
  const length = size === 'at-limit' ? limit : size === 'over-limit' ? limit + 1 : 0;
  if (bytes.length >= length) return bytes;
  const result = new Uint8Array(length).fill(0x20);
  result.set(bytes);
  return result;
}

function unpadded(body: BodySpec, pathId: string | undefined): Uint8Array {
  switch (body.kind) {
    case 'text':
      return encoder.encode(body.text);
    case 'invalid-utf8':
      return Uint8Array.of(...encoder.encode('{"title":"'), 0xc3, 0x28, ...encoder.encode('"}'));
    case 'object': {
      const entries: (readonly [string, JsonValue])[] = [];
      if (body.title !== undefined) entries.push(['title', body.title]);
      if (body.completed !== undefined) entries.push(['completed', body.completed]);
      if (body.id !== undefined) entries.push(['id', idValue(body.id, pathId)]);
      entries.push(...body.extras);
      // Written out by hand: an object built key by key would take `__proto__` as its prototype.
      const members = entries.map(
        ([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`,
      );
      const text = `{${members.join(',')}}`;
      return encoder.encode(body.truncated ? text.slice(0, -1) : text);
    }
  }
}

function idValue(field: IdField, pathId = MISSING_ID): JsonValue {
  switch (field.kind) {
    case 'path-id':
      return pathId;
    case 'path-id-upper-case':
      return pathId.toUpperCase();
    case 'value':
      return field.value;
  }
}
