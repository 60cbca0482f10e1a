import { Router, type IRequest } from 'itty-router';
import { describe, expect, it } from 'vitest';
import { HttpProblem } from '../src/http/problem.ts';
import type { Responses } from '../src/http/responses.ts';
import { routeTable } from '../src/http/router.ts';

// The handler routes with a table made of itty-router's compiled routes, in place of the
// router's own `fetch`. These tests hold the two to the same choices: were a new itty-router to
// compile or match its routes otherwise, they fail.

/** A handler that answers with which route it is and what it was handed. */
const named =
  (name: string) =>
  ({ params, route }: IRequest) =>
    `${name} ${JSON.stringify(params)} ${route}`;
/** A handler that lets the request go on to the next one, as a check that passes does. */
const passes = () => undefined;

/**
 * Routes of the same shapes as the service's, in its order: method, pattern, the handler's name.
 * `{list}` stands for each list's prefix, the default list's and a named one's. A `+` before a
 * name puts a handler that passes in front; `?` makes it pass on an id of "skip".
 */
const SERVICE_SHAPED = `
  get {list}/todos list · head {list}/todos list · post {list}/todos +create
  options {list}/todos preflight · all {list}/todos not-allowed · get {list}/todos/:id read
  put {list}/todos/:id replace · delete {list}/todos/:id ?delete · all {list}/todos/:id no
  get {list}/sse events · get /api/lists lists · post /api/lists new-list
  get /api/lists/:list list-info · get /api/openapi.json openapi · get /hello hello
  all /hello hello-not-allowed · get /healthz health · all /api/* no-such-api
  get /lists/:id page · get /service-worker.js worker · get * file · head * file
  all * file-not-allowed`;

function handlersNamed(name: string) {
  if (name.startsWith('+')) return [passes, named(name.slice(1))];
  if (!name.startsWith('?')) return [named(name)];
  const answer = named(name.slice(1));
  return [(request: IRequest) => (request.params.id === 'skip' ? undefined : answer(request))];
}

function serviceShapedRouter() {
  const router = Router<IRequest, [Responses]>();
  const routes = SERVICE_SHAPED.trim()
    .split(/\s*[·\n]\s*/)
    .map((route) => route.split(' ') as [string, string, string]);
  const perList = routes.filter(([, pattern]) => pattern.includes('{list}'));
  for (const prefix of ['/api', '/api/lists/:list']) {
    for (const [method, pattern, name] of perList) {
      router[method]!(pattern.replace('{list}', prefix), ...handlersNamed(name));
    }
  }
  for (const [method, pattern, name] of routes.filter((route) => !perList.includes(route))) {
    router[method]!(pattern, ...handlersNamed(name));
  }
  return router;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'PROPFIND'];
const ORIGINS = [
  'http://127.0.0.1:3000',
  'http://localhost:8787',
  'http://[::1]:3000',
  // Hosts after which not all that follows is path, or which are not the URL's origin as written.
  'http://x?',
  'http://x#',
  'http://user@x',
  'http://LOCALHOST:3000',
  'http://x:80',
];
const PATHS = [
  '/',
  '/hello',
  '/hello/',
  '/hello?name=Ada',
  '/healthz',
  '/api/todos',
  '/api/todos/',
  '/api/todos?x=1&x=2',
  '/api/todos/5f0c2a4e-8b1d-4c3e-9a7f-1d2e3f4a5b6c',
  '/api/todos/abc/',
  '/api/todos/skip',
  '/api/todos/a.b',
  '/api/todos/a%2Fb',
  '/api/todos/%41',
  '/api/todos/../../hello',
  '/api/./todos',
  '/api/todos/x/y',
  '/api//todos',
  '/api/lists',
  '/api/lists/L1',
  '/api/lists/L1/todos',
  '/api/lists/L1/todos/T1',
  '/api/lists/L1/sse',
  '/api/nothing',
  '/api',
  '/lists/abc',
  '/service-worker.js',
  '/app.js',
  '/build/page/view.js',
  '/~user',
  '/caf%C3%A9',
  '/café',
  '/a b',
  '/%2e%2e/hello',
  '/api\\todos',
  '/hello#x',
  '/a\tb',
  '/api/todos\n',
];

describe('the route table', () => {
  // One table and one router for every case, as the handler keeps one for its life: a path
  // taken as written after an origin already parsed must still be routed as fetch routes it.
  const router = serviceShapedRouter();
  const table = routeTable(router.routes);
  const responses = {} as Responses;
  const viaFetch = (method: string, url: string) =>
    router.fetch({ method, url } as IRequest, responses) as Promise<unknown>;
  const viaTable = (method: string, url: string) => table({ method, url } as IRequest, responses);

  it.each(ORIGINS.flatMap((origin) => PATHS.map((path) => [origin, path] as const)))(
    'routes every method at %s%s as itty-router fetch does',
    async (origin, path) => {
      const url = `${origin}${path}`;
      const byTable = await Promise.all(METHODS.map((method) => viaTable(method, url)));
      const byFetch = await Promise.all(METHODS.map((method) => viaFetch(method, url)));
      expect(byTable).toEqual(byFetch);
    },
  );

  it('refuses with 400 a URL that no parser accepts, which fetch cannot route either', async () => {
    await expect(viaFetch('GET', 'http://a b/hello')).rejects.toThrow(TypeError);
    await expect(viaTable('GET', 'http://a b/hello')).rejects.toEqual(
      new HttpProblem(400, 'The request URL or its Host header is not valid.'),
    );
  });

  it('refuses with 400 a bad Host the same length as a good one already met', async () => {
    await viaTable('GET', 'http://localhost:8787/hello');
    await expect(viaTable('GET', 'http://localhost:87 7/hello')).rejects.toEqual(
      new HttpProblem(400, 'The request URL or its Host header is not valid.'),
    );
  });

  it('reads the routes as itty-router compiles them: method, pattern, handlers, path', () => {
    const [method, pattern, handlers, path] = Router().get('/api/todos/:id', passes).routes[0]!;
    expect([method, pattern.exec('/api/todos/7')?.groups, handlers, path]).toEqual([
      'GET',
      { id: '7' },
      [passes],
      '/api/todos/:id',
    ]);
  });
});
