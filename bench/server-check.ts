/**
 * A short conformance check run on every server before it is measured: the baselines must
 * answer the benchmark's requests, and refuse bad ones, as CONTRACT.md says the service does.
 * Returns what differed, empty when nothing did.
 */
export async function checkServer(base: string): Promise<string[]> {
  const differences: string[] = [];
  const call = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const expect = async (
    what: string,
    response: Response,
    status: number,
    headers: Readonly<Record<string, string>> = {},
  ) => {
    const text = await response.text();
    if (response.status !== status) {
      differences.push(`${what}: ${response.status}, not ${status} (${text.slice(0, 120)})`);
    }
    for (const [name, value] of Object.entries(headers)) {
      const actual = response.headers.get(name);
      if (actual !== value) differences.push(`${what}: ${name} is ${actual}, not ${value}`);
    }
    return text;
  };
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'Location, ETag',
  };
  const json = {
    ...cors,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  };
  const refused = { ...cors, 'content-type': 'application/problem+json; charset=utf-8' };
  const preflight = { origin: 'http://elsewhere.example', 'access-control-request-method': 'PUT' };
  const unknownId = '00000000-0000-4000-8000-000000000000';

  await expect(
    'preflight of the list',
    await call('OPTIONS', '/api/todos', undefined, preflight),
    204,
    {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type',
      'access-control-max-age': '86400',
    },
  );
  await expect(
    'preflight of an item',
    await call('OPTIONS', `/api/todos/${unknownId}`, undefined, preflight),
    204,
    {
      'access-control-allow-methods': 'PUT, DELETE, OPTIONS',
    },
  );

  const created = await call('POST', '/api/todos', { title: 'Check the baseline' });
  const item = JSON.parse(await expect('POST', created, 201, json)) as Record<string, unknown>;
  const id = String(item.id);
  if (
    JSON.stringify(Object.keys(item)) !== '["id","title","completed"]' ||
    item.completed !== false
  ) {
    differences.push(`POST: the item is ${JSON.stringify(item)}`);
  }
  if (created.headers.get('location') !== `/api/todos/${id}`) differences.push('POST: Location');

  const one = await call('GET', `/api/todos/${id}`);
  await expect('GET one', one, 200, json);
  const etag = one.headers.get('etag') ?? 'none';
  await expect(
    'GET one, If-None-Match',
    await call('GET', `/api/todos/${id}`, undefined, { 'if-none-match': etag }),
    304,
  );
  const list = await call('GET', '/api/todos');
  if (!list.headers.get('etag')) differences.push('GET list: no ETag');
  const items = JSON.parse(await expect('GET list', list, 200, json)) as unknown[];
  if (items.length !== 1) differences.push(`GET list: ${items.length} items, not 1`);

  const replace = { title: 'Checked', completed: true };
  await expect(
    'PUT, stale If-Match',
    await call('PUT', `/api/todos/${id}`, replace, { 'if-match': '"stale"' }),
    412,
    cors,
  );
  await expect(
    'PUT',
    await call('PUT', `/api/todos/${id}`, { ...replace, id }, { 'if-match': etag }),
    200,
    json,
  );
  await expect(
    'PUT without completed',
    await call('PUT', `/api/todos/${id}`, { title: 'x' }),
    400,
    refused,
  );
  await expect(
    'PUT, another id',
    await call('PUT', `/api/todos/${id}`, { ...replace, id: unknownId }),
    400,
    refused,
  );
  await expect('PUT, not a UUID', await call('PUT', '/api/todos/nope', replace), 404, refused);
  await expect(
    'PUT, unknown id',
    await call('PUT', `/api/todos/${unknownId}`, replace),
    404,
    refused,
  );

  const badBodies: [string, unknown][] = [
    ['a blank title', { title: ' \t' }],
    ['an unknown key', { title: 'x', done: true }],
    ['an id', { title: 'x', id: unknownId }],
    ['completed as a string', { title: 'x', completed: 'yes' }],
    ['a title of 1,001 code points', { title: '😀'.repeat(1001) }],
    ['an array', '[]'],
    ['broken JSON', '{"title":'],
  ];
  for (const [what, body] of badBodies) {
    await expect(`POST with ${what}`, await call('POST', '/api/todos', body), 400, refused);
  }
  await expect(
    'POST of 1,000 code points',
    await call('POST', '/api/todos', { title: '😀'.repeat(1000) }),
    201,
  );
  await expect(
    'POST as text/plain',
    await call('POST', '/api/todos', 'Buy milk', { 'content-type': 'text/plain' }),
    415,
    refused,
  );
  await expect(
    'POST of 20 kB',
    await call('POST', '/api/todos', { title: 'x'.repeat(20_000) }),
    413,
    refused,
  );
  await expect('PATCH the list', await call('PATCH', '/api/todos'), 405, {
    allow: 'GET, HEAD, POST, OPTIONS',
  });

  await expect('DELETE', await call('DELETE', `/api/todos/${id}`), 200, json);
  await expect('GET the deleted one', await call('GET', `/api/todos/${id}`), 404, refused);
  await expect('DELETE it again', await call('DELETE', `/api/todos/${id}`), 404, refused);
  const hello = await expect('GET /hello', await call('GET', '/hello'), 200, {
    'content-type': 'text/plain; charset=utf-8',
  });
  if (hello !== 'Hello, world!') differences.push(`GET /hello: ${hello}`);
  return differences;
}
