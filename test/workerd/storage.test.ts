import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { conformanceSuite } from '../conformance/index.ts';
import { expectProblem, sendJson, type TodoJson } from '../support/api.ts';
import { openStream } from '../support/sse.ts';
import { stopWorkerd, useWorkerd, workerd, workerdInMemory } from '../support/workerd-host.ts';
import { refusedBodiesSuite } from './refused-bodies.ts';

conformanceSuite(workerdInMemory);
refusedBodiesSuite(workerd);
afterAll(stopWorkerd);

describe('the worker on workerd, its object evicted', () => {
  const runtime = useWorkerd('evictions');
  beforeEach(() => runtime().forget());

  const create = async (title: string) =>
    (await (await runtime().fetch('/api/todos', sendJson('POST', { title }))).json()) as TodoJson;
  const list = async () => (await runtime().fetch('/api/todos')).json();

  it('keeps the list, in order', async () => {
    for (const title of ['a', 'b', 'c']) await create(title);
    const before = await list();
    await runtime().evict();
    expect(await list()).toEqual(before);
  });

  it('resumes a stream with the changes it missed, not a snapshot', async () => {
    await create('seen');
    const stream = await openStream(runtime().asService());
    const { id: lastId } = await stream.nextEvent();
    stream.close();
    const missed = [await create('missed 1'), await create('missed 2')];
    await runtime().evict();
    const resumed = await openStream(runtime().asService(), {
      headers: { 'last-event-id': lastId },
    });
    const events = [await resumed.nextEvent(), await resumed.nextEvent()];
    resumed.close();
    expect(events.map(({ event, data }) => [event, data])).toEqual(
      missed.map((todo) => ['created', todo]),
    );
  });

  it('refuses with the generic 500 a list kept in a format from before formats were numbered, logging why', async () => {
    await runtime().olderFormat();
    await expectProblem(await runtime().fetch('/api/todos'), 500);
    expect(runtime().newFailures()).toEqual([
      expect.stringContaining('its tables are of a format from before formats were numbered'),
    ]);
  });

  it('logs no failure of the runtime', async () => {
    await create('a');
    await runtime().evict();
    await list();
    expect(runtime().newFailures()).toEqual([]);
  });
});

describe('the worker on workerd with a [vars] value it cannot use', () => {
  const runtime = useWorkerd('bad vars', { LIMITS_MAX_BODY_BYTES: 'lots' });

  it('answers every request with a 500 that names the variable and what it must be', async () => {
    const response = await runtime().fetch('/api/todos');
    expect([response.status, (await response.json()).detail]).toEqual([
      500,
      'The service is misconfigured. [vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".',
    ]);
  });

  it("names the request's id as the problem's instance", async () => {
    const response = await runtime().fetch('/api/todos', { headers: { 'x-request-id': 'ops-42' } });
    expect([response.headers.get('x-request-id'), (await response.json()).instance]).toEqual([
      'ops-42',
      'ops-42',
    ]);
  });

  it('answers /hello the same way', async () => {
    const response = await runtime().fetch('/hello');
    expect(response.status).toBe(500);
  });

  it('logs what is wrong, naming the variable', async () => {
    await (await runtime().fetch('/')).arrayBuffer();
    await expect
      .poll(() => runtime().output)
      .toContain('[vars] LIMITS_MAX_BODY_BYTES must be an integer of at least 1; it is "lots".');
  });

  it('logs no failure of the runtime besides its own error line', async () => {
    await (await runtime().fetch('/api/todos', { method: 'POST', body: '{}' })).arrayBuffer();
    const failures = runtime()
      .newFailures()
      .filter((line) => !line.includes('[vars] are wrong'));
    expect(failures).toEqual([]);
  });
});
