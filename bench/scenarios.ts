import type { ServerChild } from './children.ts';
import type { LoadPlan } from './load.ts';

/** One row of the throughput table: a state to set up on a fresh server, then one request. */
export interface Scenario {
  readonly id: string;
  readonly label: string;
  /** Sets up the server's list and returns the load to put on it for `seconds` in all. */
  prepare(server: ServerChild, seconds: number, maxItems: number): Promise<LoadPlan>;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const NEW_ITEM = JSON.stringify({ title: 'Water the plants', completed: false });
const REPLACEMENT = JSON.stringify({ title: 'Water the plants', completed: true });
/** Above what any server here answers DELETE on one core; the pool of ids is made for it. */
const MAX_DELETES_PER_SECOND = 60_000;
/** A list item's JSON is at least this long (bytes). */
const ITEM_BYTES = 60;

const get = (path: string) => ({ method: 'GET', path });
export const post = { method: 'POST', path: '/api/todos', headers: JSON_HEADERS, body: NEW_ITEM };
const put = (id: string) => ({
  method: 'PUT',
  path: `/api/todos/${id}`,
  headers: JSON_HEADERS,
  body: REPLACEMENT,
});

export const headerOf = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/**
 * Each connection creates an item and deletes it, again and again, so the list stays at the
 * size it was given. Each POST goes to the collection `collection()` names, by default the
 * default list's.
 */
export function postThenDelete(collection = () => post.path): LoadPlan {
  return {
    requests: [
      {
        ...post,
        setupRequest: (request) => ({ ...request, path: collection() }),
        onResponse: (_, __, context, headers) => (context.at = headerOf(headers, 'location')),
      },
      {
        method: 'DELETE',
        setupRequest: (request, context) => ({ ...request, path: String(context.at) }),
      },
    ],
    expect: [200, 201],
  };
}

/** DELETE, each request of an id of `ids` not asked for before. */
function deleteEach(ids: readonly string[]): LoadPlan {
  let next = 0;
  return {
    requests: [
      {
        method: 'DELETE',
        setupRequest: (request) => ({ ...request, path: `/api/todos/${ids[next++]}` }),
      },
    ],
    expect: [200],
    maxRequests: ids.length,
  };
}

const scenario = (id: string, label: string, prepare: Scenario['prepare']) => ({
  id,
  label,
  prepare,
});

const listOf = (items: number) =>
  scenario(
    items === 100 ? 'get-list-100' : 'get-list-10k',
    `GET list of ${items.toLocaleString('en-US')}`,
    async (server) => {
      await server.seed(items);
      return { requests: [get('/api/todos')], expect: [200], minBytes: items * ITEM_BYTES };
    },
  );

const PREFLIGHT = {
  method: 'OPTIONS',
  path: '/api/todos',
  headers: {
    origin: 'http://localhost:5173',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type',
  },
};

export const SCENARIOS: readonly Scenario[] = [
  listOf(100),
  listOf(10_000),
  scenario('get-one', 'GET one', async (server) => {
    const ids = await server.seed(100);
    return { requests: [get(`/api/todos/${ids[50]}`)], expect: [200], minBytes: ITEM_BYTES };
  }),
  scenario('post', 'POST', async (server, _seconds, maxItems) => {
    await server.seed(100);
    return { requests: [post], expect: [201], maxRequests: maxItems - 100 };
  }),
  scenario('put', 'PUT', async (server) => {
    const ids = await server.seed(100);
    return { requests: [put(ids[50]!)], expect: [200] };
  }),
  scenario('delete', 'DELETE', async (server, seconds) => {
    await server.seed(100);
    return deleteEach(await server.seed(Math.ceil(MAX_DELETES_PER_SECOND * seconds)));
  }),
  scenario('hello', 'GET /hello', async () => ({ requests: [get('/hello')], expect: [200] })),
  scenario('preflight', 'OPTIONS preflight', async () => ({
    requests: [PREFLIGHT],
    expect: [204],
  })),
];
