import { describe, expect, it } from 'vitest';
import { createTodo, expectProblem, MISSING_ID, sendJson, listState } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

const LIMIT = 16384;
const encoder = new TextEncoder();

/** A valid create body of exactly `bytes` bytes, padded with JSON whitespace. */
export function bodyOfSize(bytes: number): string {
  const core = '{"title":"padded"';
  return core + ' '.repeat(bytes - core.length - 1) + '}';
}

/** A body sent chunked, with no Content-Length, as a streaming client sends it. */
export function streamedBody(text: string, chunkBytes = 1024): RequestInit {
  const bytes = encoder.encode(text);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit;
}

/** docs/api.md, Request bodies: media type, size, capacity and the order of the checks. */
export function bodyChecksSuite(host: TestHost) {
  describe('media type', () => {
    const api = useService(host);

    it.each([
      ['no Content-Type', undefined],
      ['text/plain', 'text/plain'],
      ['a form', 'application/x-www-form-urlencoded'],
      ['a look-alike', 'application/jsonp'],
    ])('refuses a create with %s with 415 and changes nothing', async (_name, contentType) => {
      const before = await listState(api());
      const response = await api().fetch(api().paths.todos, {
        method: 'POST',
        headers: contentType ? { 'content-type': contentType } : {},
        body: encoder.encode('{"title":"a"}'),
      });
      await expectProblem(response, 415);
      expect(await listState(api())).toEqual(before);
    });

    it('refuses a PUT sent as text/plain with 415 and changes nothing', async () => {
      const todo = await createTodo(api());
      const before = await listState(api());
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: '{"title":"b","completed":true}',
      });
      await expectProblem(response, 415);
      expect(await listState(api())).toEqual(before);
    });

    it('accepts application/json in any case with a charset', async () => {
      const response = await api().fetch(api().paths.todos, {
        method: 'POST',
        headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
        body: '{"title":"a"}',
      });
      expect(response.status).toBe(201);
    });

    it('refuses a body that is not valid UTF-8 with 400 and changes nothing', async () => {
      const before = await listState(api());
      const bytes = new Uint8Array([
        ...encoder.encode('{"title":"'),
        0xc3,
        0x28,
        ...encoder.encode('"}'),
      ]);
      const invalid = await api().fetch(api().paths.todos, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bytes,
      });
      expect((await expectProblem(invalid, 400)).detail).toContain('UTF-8');
      expect(await listState(api())).toEqual(before);
    });
  });

  describe('size', () => {
    const api = useService(host);

    it('accepts a body of exactly limits.maxBodyBytes', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', bodyOfSize(LIMIT)));
      expect(response.status).toBe(201);
    });

    it('refuses a body one byte over the limit with 413 and changes nothing', async () => {
      const before = await listState(api());
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', bodyOfSize(LIMIT + 1)),
      );
      await expectProblem(response, 413);
      expect(await listState(api())).toEqual(before);
    });

    it('refuses a chunked body with no Content-Length once it passes the limit', async () => {
      const before = await listState(api());
      const response = await api().fetch(api().paths.todos, streamedBody(bodyOfSize(LIMIT * 8)));
      await expectProblem(response, 413);
      expect(await listState(api())).toEqual(before);
    });

    it('accepts a chunked body within the limit', async () => {
      const response = await api().fetch(api().paths.todos, streamedBody(bodyOfSize(LIMIT), 100));
      expect(response.status).toBe(201);
    });

    it('refuses an oversized PUT with 413 and changes nothing', async () => {
      const todo = await createTodo(api());
      const before = await listState(api());
      const body = JSON.stringify({ title: 'x'.repeat(LIMIT), completed: true });
      await expectProblem(
        await api().fetch(`${api().paths.todos}/${todo.id}`, sendJson('PUT', body)),
        413,
      );
      expect(await listState(api())).toEqual(before);
    });
  });

  describe('capacity', () => {
    const api = useService(host, { limits: { maxItems: 2 } });

    it('answers 507 when limits.maxItems items exist and stores nothing', async () => {
      await createTodo(api(), { title: 'one' });
      await createTodo(api(), { title: 'two' });
      const before = await listState(api());
      await expectProblem(
        await api().fetch(api().paths.todos, sendJson('POST', { title: 'three' })),
        507,
      );
      expect(await listState(api())).toEqual(before);
    });

    it('takes new items again once one is deleted', async () => {
      const first = await createTodo(api(), { title: 'one' });
      await createTodo(api(), { title: 'two' });
      await api().fetch(`${api().paths.todos}/${first.id}`, { method: 'DELETE' });
      expect(
        (await api().fetch(api().paths.todos, sendJson('POST', { title: 'three' }))).status,
      ).toBe(201);
    });

    it('still lets a full list be updated', async () => {
      const first = await createTodo(api(), { title: 'one' });
      await createTodo(api(), { title: 'two' });
      const response = await api().fetch(
        `${api().paths.todos}/${first.id}`,
        sendJson('PUT', { title: 'uno', completed: true }),
      );
      expect(response.status).toBe(200);
    });
  });

  describe('the order of the checks', () => {
    const api = useService(host, { limits: { maxItems: 1 } });
    const stale = { 'if-match': '"stale"' };

    it('answers 404 before looking at the media type', async () => {
      const response = await api().fetch(`${api().paths.todos}/${MISSING_ID}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      });
      expect(response.status).toBe(404);
    });

    it('answers 404 for a non-UUID id before looking at headers or body', async () => {
      const response = await api().fetch(`${api().paths.todos}/nope`, {
        method: 'PUT',
        headers: stale,
        body: 'x',
      });
      expect(response.status).toBe(404);
    });

    it('answers 415 before checking If-Match', async () => {
      const todo = await createTodo(api());
      const response = await api().fetch(`${api().paths.todos}/${todo.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'text/plain', ...stale },
        body: '{}',
      });
      expect(response.status).toBe(415);
    });

    it('answers 412 before reading the body', async () => {
      const todo = await createTodo(api());
      const body = JSON.stringify({ title: 'x'.repeat(LIMIT), completed: true });
      const response = await api().fetch(
        `${api().paths.todos}/${todo.id}`,
        sendJson('PUT', body, stale),
      );
      expect(response.status).toBe(412);
    });

    it('answers 413 before parsing the JSON', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', '{' + 'x'.repeat(LIMIT)),
      );
      expect(response.status).toBe(413);
    });

    it('answers 400 for an invalid body before checking capacity', async () => {
      await createTodo(api());
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: '' }));
      expect(response.status).toBe(400);
    });
  });
}
