import { describe, expect, it, onTestFinished } from 'vitest';
import { LISTS_PATH, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { answerOf, keyed } from '../conformance/idempotency.ts';
import { expectProblem } from '../support/api.ts';
import { createList } from '../support/lists.ts';
import { useWorkerd } from '../support/workerd-host.ts';

/** A key of its own for each create: keyed lists' objects outlive a test. */
const newKey = () => `"${crypto.randomUUID()}"`;

describe('Idempotency-Key on workerd, the objects evicted', () => {
  const dev = useWorkerd('idempotency');

  it('answers a retried item create as the first after the list’s object was evicted', async () => {
    const key = newKey();
    const answered = await answerOf(await dev().fetch('/api/todos', keyed({ title: 'a' }, key)));
    const before = await (await dev().fetch('/api/todos')).json();
    await dev().evict();
    const retry = await answerOf(await dev().fetch('/api/todos', keyed({ title: 'a' }, key)));
    expect([retry, await (await dev().fetch('/api/todos')).json()]).toEqual([answered, before]);
  });

  it('reads a list kept in format 1, answering its kept item keys as the first', async () => {
    const { id } = await createList(dev().asService());
    const todos = namedListPaths(id).todos;
    const key = newKey();
    const answered = await answerOf(await dev().fetch(todos, keyed({ title: 'a' }, key)));
    const before = await (await dev().fetch(todos)).json();
    await dev().formatOne(id);
    const retry = await answerOf(await dev().fetch(todos, keyed({ title: 'a' }, key)));
    expect([retry, await (await dev().fetch(todos)).json()]).toEqual([answered, before]);
  });

  it('answers a retried create on a named list as the first after its object was evicted', async () => {
    const { id } = await createList(dev().asService());
    const todos = namedListPaths(id).todos;
    const key = newKey();
    const answered = await answerOf(await dev().fetch(todos, keyed({ title: 'a' }, key)));
    await dev().evict(id);
    expect(await answerOf(await dev().fetch(todos, keyed({ title: 'a' }, key)))).toEqual(answered);
  });

  it('answers a retried list create as the first after the list’s object was evicted', async () => {
    const key = newKey();
    const first = await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
    const answered = await answerOf(first);
    await dev().evict(JSON.parse(answered.body).id);
    expect(
      await answerOf(await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key))),
    ).toEqual(answered);
  });

  it('refuses the key of a deleted list with 410 after its object was evicted', async () => {
    const key = newKey();
    const { id } = await (await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key))).json();
    await dev().fetch(listPathOf(id), { method: 'DELETE' });
    await dev().evict(id);
    await expectProblem(await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key)), 410);
    expect((await dev().fetch(listPathOf(id))).status).toBe(404);
  });

  it('refuses with 410 the key of a list whose object crashed as it deleted the list', async () => {
    const key = newKey();
    const { id } = await (await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key))).json();
    const crashed = (await dev().objectState(id)).instance;
    await dev().crashAfterNextWrite(id);
    // The crash may cut the answer off: what matters is what the key does next.
    const deleted = dev().fetch(listPathOf(id), { method: 'DELETE' });
    await deleted.then((answer) => answer.body?.cancel()).catch(() => {});
    const instance = async () => (await dev().objectState(id)).instance;
    await expect.poll(instance, { timeout: 5000 }).not.toBe(crashed);
    await expectProblem(await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key)), 410);
    expect((await dev().fetch(listPathOf(id))).status).toBe(404);
  });

  it('logs no failure of the runtime', async () => {
    const key = newKey();
    await dev().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
    await dev().fetch(LISTS_PATH, keyed({ title: 'Food' }, key));
    expect(dev().newFailures()).toEqual([]);
  });
});

describe('Idempotency-Key on workerd while the first list create is being counted', () => {
  const runtime = useWorkerd('list creations held');

  it('answers a retry of a list create 409, then as the first once it is made', async () => {
    const key = newKey();
    await runtime().holdListCreations();
    onTestFinished(() => runtime().releaseListCreations());
    const first = runtime().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
    await runtime().listCreationWaits();
    await expectProblem(await runtime().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key)), 409);
    await runtime().releaseListCreations();
    const answered = await answerOf(await first);
    const retry = await runtime().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
    expect([answered.status, await answerOf(retry)]).toEqual([201, answered]);
  });

  it('answers a retry 201, logging nothing, once the first create’s client left while it was counted', async () => {
    const key = newKey();
    await runtime().holdListCreations();
    onTestFinished(() => runtime().releaseListCreations());
    const client = new AbortController();
    const first = runtime().fetch(LISTS_PATH, {
      ...keyed({ title: 'Groceries' }, key),
      signal: client.signal,
    });
    await runtime().listCreationWaits();
    client.abort();
    await first.catch(() => {});
    await runtime().releaseListCreations();
    const retry = await runtime().fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));
    expect([retry.status, runtime().newFailures()]).toEqual([201, []]);
  });
});

describe('Idempotency-Key on workerd with sse.replayEvents 0, the object evicted', () => {
  const runtime = useWorkerd('no replay', { SSE_REPLAY_EVENTS: 0 });

  it('answers a retried item create as the first after later changes and an eviction', async () => {
    const key = newKey();
    const first = await runtime().fetch('/api/todos', keyed({ title: 'a' }, key));
    const answered = await answerOf(first);
    await runtime().fetch('/api/todos', keyed({ title: 'b' }, newKey()));
    await runtime().evict();
    const retry = await runtime().fetch('/api/todos', keyed({ title: 'a' }, key));
    expect(await answerOf(retry)).toEqual(answered);
  });
});
