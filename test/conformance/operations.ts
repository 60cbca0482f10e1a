import { describe, expect, it } from 'vitest';
import {
  createTodo,
  expectProblem,
  MISSING_ID,
  onList,
  sendJson,
  listState,
  UUID,
} from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

/** What an operator relies on: the health route, and an id on every answer to quote. */
export function operationsSuite(host: TestHost) {
  describe('/healthz', () => {
    const api = useService(host);

    it('answers 200 with {"status":"ok"} as JSON', async () => {
      const response = await api().fetch('/healthz');
      expect([
        response.status,
        response.headers.get('content-type'),
        await response.json(),
      ]).toEqual([200, 'application/json; charset=utf-8', { status: 'ok' }]);
    });

    it('is never cached', async () => {
      expect((await api().fetch('/healthz')).headers.get('cache-control')).toBe('no-store');
    });

    it('tells browsers not to sniff its answer as another type', async () => {
      const response = await api().fetch('/healthz');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('answers HEAD with 200 and no body', async () => {
      const head = await api().fetch('/healthz', { method: 'HEAD' });
      expect([head.status, await head.text()]).toEqual([200, '']);
    });

    it('refuses POST with 405 naming GET and HEAD', async () => {
      const response = await api().fetch('/healthz', { method: 'POST' });
      await expectProblem(response, 405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('the API description', () => {
    const api = useService(host);

    it('serves an OpenAPI 3.1 document at /api/openapi.json', async () => {
      const response = await api().fetch('/api/openapi.json');
      expect([response.status, ((await response.json()) as { openapi: string }).openapi]).toEqual([
        200,
        '3.1.1',
      ]);
    });

    it('lets a page on another origin read it', async () => {
      const response = await api().fetch('/api/openapi.json', {
        headers: { origin: 'https://example.com' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('states the limits the service was started with', async () => {
      const limited = await host.start({ limits: { maxItems: 3 } });
      const document = await (await limited.fetch('/api/openapi.json')).text();
      await limited.close();
      expect(document).toContain('The list already holds 3 items');
    });

    it('serves the API reference page at /docs under the page CSP', async () => {
      const response = await api().fetch('/docs');
      expect([
        response.status,
        response.headers.get('content-type'),
        response.headers.get('content-security-policy'),
      ]).toEqual([200, 'text/html; charset=utf-8', expect.stringContaining("script-src 'self'")]);
    });

    it('points the reference page at the document', async () => {
      const page = await (await api().fetch('/build/page/api-reference.js')).text();
      expect(page).toContain("'/api/openapi.json'");
    });
  });

  describe('request ids', () => {
    const api = useService(host);

    it.each([
      '/api/todos',
      '/api/sse?probe',
      '/hello',
      '/healthz',
      '/',
      `/api/todos/${MISSING_ID}`,
    ])('gives the answer to %s a request id when the client sent none', async (path) => {
      const controller = new AbortController();
      const response = await api().fetch(onList(api(), path), { signal: controller.signal });
      controller.abort();
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it.each([
      ['OPTIONS', '/api/todos'],
      ['HEAD', '/api/todos'],
      ['PUT', '/hello'],
      ['GET', '/api/openapi.json'],
      ['GET', '/docs'],
      ['GET', '/no-such-page'],
    ])('gives the answer to %s %s a request id', async (method, path) => {
      const response = await api().fetch(onList(api(), path), { method });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it('gives two requests two ids', async () => {
      const [first, second] = await Promise.all([api().fetch('/hello'), api().fetch('/hello')]);
      expect(first!.headers.get('x-request-id')).not.toBe(second!.headers.get('x-request-id'));
    });

    it.each([
      'b3f1c2d4',
      'Root=1-5759e988-bd862e3fe1be46a994272793',
      'a'.repeat(128),
      "x-._~!$&'()*+,;=:@/1",
    ])('keeps the X-Request-Id %s that the client sent', async (id) => {
      const response = await api().fetch(api().paths.todos, { headers: { 'x-request-id': id } });
      expect(response.headers.get('x-request-id')).toBe(id);
    });

    it.each([
      ['longer than 128 characters', 'a'.repeat(129)],
      ['with a space', 'order 42'],
      ['with a quote', 'say"hi'],
      ['with a non-ASCII letter', 'zoë'],
      ['empty', ''],
    ])('replaces an X-Request-Id %s with one of its own', async (_case, id) => {
      const response = await api().fetch(api().paths.todos, { headers: { 'x-request-id': id } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it("names the request as the problem's instance", async () => {
      const response = await api().fetch(`${api().paths.todos}/${MISSING_ID}`, {
        headers: { 'x-request-id': 'support-ticket-991' },
      });
      expect((await expectProblem(response, 404)).instance).toBe('support-ticket-991');
    });

    it('names a generated id as the instance of a refused body', async () => {
      const response = await api().fetch(api().paths.todos, sendJson('POST', { title: '' }));
      const problem = await expectProblem(response, 400);
      expect(problem.instance).toBe(response.headers.get('x-request-id'));
    });

    it('keeps the id of a create without changing what is created', async () => {
      const response = await api().fetch(
        api().paths.todos,
        sendJson('POST', { title: 'Buy milk' }, { 'x-request-id': 'create-1' }),
      );
      expect(response.headers.get('x-request-id')).toBe('create-1');
      expect(Object.keys(await response.json())).toEqual(['id', 'title', 'completed']);
    });

    it('is the same list whatever id the client sends', async () => {
      await createTodo(api());
      const before = await listState(api());
      await api().fetch(api().paths.todos, { headers: { 'x-request-id': 'x'.repeat(500) } });
      expect(await listState(api())).toEqual(before);
    });
  });
}
