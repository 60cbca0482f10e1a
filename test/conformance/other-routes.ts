import { describe, expect, it } from 'vitest';
import { expectProblem } from '../support/api.ts';
import { useService, type TestHost } from '../support/hosts.ts';

/** docs/api.md, HTTP details: the greeting and the files of the site. */
export function otherRoutesSuite(host: TestHost) {
  describe('/hello', () => {
    const api = useService(host);

    it('greets the world as UTF-8 plain text', async () => {
      const response = await api().fetch('/hello');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await response.text()).toBe('Hello, world!');
    });

    it.each([
      ['Ada', 'Hello, Ada!'],
      ['%20%20Ada%20', 'Hello, Ada!'],
      ['', 'Hello, world!'],
      ['%20%09', 'Hello, world!'],
      ['Zo%C3%AB%20%F0%9F%90%88', 'Hello, Zoë 🐈!'],
    ])('answers ?name=%s with %j', async (name, greeting) => {
      expect(await (await api().fetch(`/hello?name=${name}`)).text()).toBe(greeting);
    });

    it('greets the world when the first name given is empty', async () => {
      expect(await (await api().fetch('/hello?name=&name=Bob')).text()).toBe('Hello, world!');
    });

    it('tells browsers not to sniff the greeting as another type', async () => {
      expect(
        (await api().fetch('/hello?name=<b>x</b>')).headers.get('x-content-type-options'),
      ).toBe('nosniff');
    });

    it('tells caches to keep no greeting: each is made for its request', async () => {
      expect((await api().fetch('/hello?name=Ada')).headers.get('cache-control')).toBe('no-store');
    });

    it('accepts a name of 100 code points', async () => {
      const name = '🐈'.repeat(100);
      expect(await (await api().fetch(`/hello?name=${encodeURIComponent(name)}`)).text()).toBe(
        `Hello, ${name}!`,
      );
    });

    it('refuses a name of 101 code points with 400', async () => {
      await expectProblem(await api().fetch(`/hello?name=${'a'.repeat(101)}`), 400);
    });

    it('tells browsers not to sniff a refused greeting either', async () => {
      const response = await api().fetch(`/hello?name=${'a'.repeat(101)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('answers POST /hello with 405', async () => {
      const response = await api().fetch('/hello', { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });

  describe('the page and public/', () => {
    const api = useService(host);

    it('serves public/index.html at /', async () => {
      const response = await api().fetch('/');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toMatch(/^<!doctype html>/i);
    });

    it.each(['AAAAAAAAAAAAAAAAAAAAAA', 'not-a-list'])(
      'serves the same page, with its headers, at /lists/%s: the page reads the list itself',
      async (id) => {
        const [root, page] = [await api().fetch('/'), await api().fetch(`/lists/${id}`)];
        const headersOf = (response: Response) =>
          [...response.headers].filter(([name]) => !['x-request-id', 'date'].includes(name));
        expect([page.status, headersOf(page), await page.text()]).toEqual([
          200,
          headersOf(root),
          await root.text(),
        ]);
      },
    );

    it('answers POST to a list page with 405', async () => {
      const response = await api().fetch('/lists/AAAAAAAAAAAAAAAAAAAAAA', { method: 'POST' });
      await response.body?.cancel();
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    });

    it('serves the same page at /index.html', async () => {
      const [root, index] = [await api().fetch('/'), await api().fetch('/index.html')];
      expect(await index.text()).toBe(await root.text());
    });

    it.each([
      ['/style.css', 'text/css; charset=utf-8'],
      ['/build/page/main.js', 'text/javascript; charset=utf-8'],
    ])('serves %s as %s', async (path, type) => {
      const response = await api().fetch(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
    });

    it('forbids the page inline script and other origins', async () => {
      const policy = (await api().fetch('/')).headers.get('content-security-policy') ?? '';
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("default-src 'self'");
    });

    it('tells browsers not to sniff types or send referrers', async () => {
      const response = await api().fetch('/build/page/main.js');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    });

    it('answers a file that does not exist with 404', async () => {
      await expectProblem(await api().fetch('/missing.css'), 404);
    });

    it.each([
      '/..%2fpackage.json',
      '/%2e%2e%2fpackage.json',
      '/..%5cpackage.json',
      '/x/..%2f..%2fpackage.json',
      '/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/index.html%00.css',
      '/x//index.html',
      '/%E0%A4%A',
    ])('answers %s, which tries to leave public/, with 404', async (path) => {
      await expectProblem(await api().fetch(path), 404);
    });

    it('answers POST / with 405', async () => {
      const response = await api().fetch('/', { method: 'POST' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    });
  });
}
