import { describe, expect, it } from 'vitest';
import type { ProblemJson } from '../support/api.ts';
import { serviceAt, useNodeServer } from '../support/node-server.ts';
import { listState } from '../support/api.ts';
import { rawCreate, responsesTo, type RawResponse } from '../support/raw-client.ts';

/** The one answer to a create of `body`, sent byte for byte as given. */
async function create(url: string, body: string | Uint8Array): Promise<RawResponse> {
  const [response, ...more] = await responsesTo(url, rawCreate(body));
  expect(more).toEqual([]);
  return response!;
}

const problemOf = (response: RawResponse) => JSON.parse(response.body) as ProblemJson;

/** `{"title":"a<bytes>b"}`: the bytes sit inside a JSON string, where only UTF-8 may. */
function titleWithBytes(bytes: number[]): Uint8Array {
  return Buffer.concat([Buffer.from('{"title":"a'), Buffer.from(bytes), Buffer.from('b"}')]);
}

const nested = (depth: number, open: string, inner: string, close: string) =>
  open.repeat(depth) + inner + close.repeat(depth);

describe('the Node host and bodies that are not UTF-8', () => {
  const running = useNodeServer();

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong encoding of "/"', [0xc0, 0xaf]],
    ['an encoded UTF-16 surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut short', [0xe2, 0x82]],
    ['the bytes FE and FF', [0xfe, 0xff]],
  ])('refuses %s inside a JSON string with 400, storing nothing', async (_name, bytes) => {
    const before = await listState(serviceAt(running().url));
    const response = await create(running().url, titleWithBytes(bytes));
    expect([response.status, problemOf(response).detail]).toEqual([
      400,
      expect.stringContaining('UTF-8'),
    ]);
    expect(await listState(serviceAt(running().url))).toEqual(before);
  });
});

describe('the Node host and JSON nested 100000 levels deep', () => {
  const DEPTH = 100_000;

  describe('under the default body limit', () => {
    const running = useNodeServer();

    it('refuses it with 413 before parsing, and keeps serving', async () => {
      const before = await listState(serviceAt(running().url));
      const response = await create(running().url, nested(DEPTH, '[', '', ']'));
      expect(response.status).toBe(413);
      expect(await listState(serviceAt(running().url))).toEqual(before);
    });
  });

  describe('under a body limit that lets the parser see it', () => {
    const running = useNodeServer({ limits: { maxBodyBytes: 1024 * 1024 } });

    it('answers nested arrays with 400, not an object, and keeps serving', async () => {
      const before = await listState(serviceAt(running().url));
      const response = await create(running().url, nested(DEPTH, '[', '', ']'));
      expect([response.status, problemOf(response).detail]).toEqual([
        400,
        expect.stringContaining('must be a JSON object'),
      ]);
      expect(await listState(serviceAt(running().url))).toEqual(before);
    });

    it('answers nested objects with 400 naming the unknown key, and keeps serving', async () => {
      const before = await listState(serviceAt(running().url));
      const response = await create(running().url, nested(DEPTH, '{"a":', '1', '}'));
      expect([response.status, problemOf(response).errors?.[0]?.pointer]).toEqual([400, '/a']);
      expect(await listState(serviceAt(running().url))).toEqual(before);
    });

    it('answers nesting that never closes with 400, not valid JSON', async () => {
      const response = await create(running().url, '['.repeat(DEPTH));
      expect([response.status, problemOf(response).detail]).toEqual([
        400,
        expect.stringContaining('not valid JSON'),
      ]);
    });
  });
});

/** A create body of `count` unknown keys beside a valid title. */
const manyKeys = (count: number) =>
  `{"title":"a",${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}}`;

describe('the Node host and thousands of keys in one object', () => {
  describe('under the default body limit', () => {
    const running = useNodeServer();
    /** As many keys as 16 KiB holds. */
    const KEYS = Math.floor(16384 / '"k0000":0,'.length);

    it('answers as many unknown keys as the body limit holds in a few KiB', async () => {
      const response = await create(running().url, manyKeys(KEYS));
      expect(response.status).toBe(400);
      expect(Buffer.byteLength(response.body)).toBeLessThan(4096);
    });
  });

  describe('under a body limit that lets 10000 keys through', () => {
    const running = useNodeServer({ limits: { maxBodyBytes: 256 * 1024 } });

    it('answers 10000 unknown keys with 400 naming the first of them, storing nothing', async () => {
      const before = await listState(serviceAt(running().url));
      const response = await create(running().url, manyKeys(10_000));
      expect([response.status, problemOf(response).errors?.[0]?.pointer]).toEqual([400, '/k0']);
      expect(await listState(serviceAt(running().url))).toEqual(before);
    });

    it('counts the unknown keys past the first ten in one error on the whole body', async () => {
      const response = await create(running().url, manyKeys(10_000));
      expect(problemOf(response).errors).toContainEqual({
        pointer: '',
        detail: expect.stringContaining('9990 more keys'),
      });
    });

    it('answers 10000 unknown keys in a few KiB', async () => {
      const response = await create(running().url, manyKeys(10_000));
      expect(Buffer.byteLength(response.body)).toBeLessThan(4096);
    });
  });
});
