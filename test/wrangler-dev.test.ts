import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { conformanceSuite } from './conformance/index.ts';
import { sendJson, type TodoJson } from './support/api.ts';
import { onNamedList } from './support/hosts.ts';
import { openStream } from './support/sse.ts';
import {
  stopWranglerDev,
  useWranglerDev,
  wranglerDev,
  wranglerDevAsDeployed,
  wranglerDevInMemory,
} from './support/wrangler-dev-host.ts';
import { refusedBodiesSuite } from './workerd/refused-bodies.ts';
import { ONE_LIST } from './workerd/test-paths.ts';

conformanceSuite(wranglerDev);
conformanceSuite(onNamedList(wranglerDev));
refusedBodiesSuite(wranglerDev);
refusedBodiesSuite(wranglerDevAsDeployed);
conformanceSuite(wranglerDevInMemory);
afterAll(stopWranglerDev);

describe('the worker under wrangler dev, its object evicted', () => {
  const dev = useWranglerDev('evictions');
  beforeEach(() => dev().forget());

  const create = async (title: string) =>
    (await (await dev().fetch('/api/todos', sendJson('POST', { title }))).json()) as TodoJson;
  const list = async () => (await dev().fetch('/api/todos')).json();

  it('keeps the list, in order', async () => {
    for (const title of ['a', 'b', 'c']) await create(title);
    const before = await list();
    await dev().evict();
    expect(await list()).toEqual(before);
  });

  it('resumes a stream with the changes it missed, not a snapshot', async () => {
    await create('seen');
    const stream = await openStream(dev().asService());
    const { id: lastId } = await stream.nextEvent();
    stream.close();
    const missed = [await create('missed 1'), await create('missed 2')];
    await dev().evict();
    const resumed = await openStream(dev().asService(), {
      headers: { 'last-event-id': lastId },
    });
    const events = [await resumed.nextEvent(), await resumed.nextEvent()];
    resumed.close();
    expect(events.map(({ event, data }) => [event, data])).toEqual(
      missed.map((todo) => ['created', todo]),
    );
  });

  it('moves the list of an object from before there were named lists into the default list', async () => {
    await dev().oneListSchema();
    const response = await dev().fetch('/api/todos');
    expect([await response.json(), response.headers.get('etag')]).toEqual([
      ONE_LIST.items,
      `"${ONE_LIST.run}.${ONE_LIST.sequence}"`,
    ]);
  });

  it('logs no failure of the runtime', async () => {
    await create('a');
    await dev().evict();
    await list();
    expect(dev().newFailures()).toEqual([]);
  });
});

describe('the worker under wrangler dev with a [vars] value it cannot use', () => {
  const dev = useWranglerDev('bad vars', { LIMITS_MAX_BODY_BYTES: 'lots' });

  it('answers every request with a 500 that names the variable and what it must be', async () => {
    const response = await dev().fetch('/api/todos');
    expect([response.status, (await response.json()).detail]).toEqual([
      500,
      'The service is misconfigured. [vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".',
    ]);
  });

  it("names the request's id as the problem's instance", async () => {
    const response = await dev().fetch('/api/todos', { headers: { 'x-request-id': 'ops-42' } });
    expect([response.headers.get('x-request-id'), (await response.json()).instance]).toEqual([
      'ops-42',
      'ops-42',
    ]);
  });

  it('answers /hello the same way', async () => {
    const response = await dev().fetch('/hello');
    expect(response.status).toBe(500);
  });

  it('logs what is wrong, naming the variable', async () => {
    await (await dev().fetch('/')).arrayBuffer();
    await expect
      .poll(() => dev().output)
      .toContain('[vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".');
  });

  it('logs no failure of the runtime besides its own error line', async () => {
    await (await dev().fetch('/api/todos', { method: 'POST', body: '{}' })).arrayBuffer();
    const failures = dev()
      .newFailures()
      .filter((line) => !line.includes('[vars] are wrong'));
    expect(failures).toEqual([]);
  });
});
