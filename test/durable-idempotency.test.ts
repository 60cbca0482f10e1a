import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_APP_CONFIG } from '../src/config.ts';
import { FOLD_EVERY } from '../src/storage/list-writer.ts';
import { LISTS_PATH, listPathOf, namedListPaths } from '../src/model/resources.ts';
import { expectProblem, sendJson, type TodoJson } from './support/api.ts';
import { freshFile } from './support/fresh-file.ts';
import { heldService, opened, sqliteService } from './support/sqlite-service.ts';
import { answerOf, keyed } from './conformance/idempotency.ts';
import { TO_FORMAT_ONE } from './workerd/test-paths.ts';

type Service = ReturnType<typeof sqliteService>;

const createItem = (service: Service, title: string, path = '/api/todos', key?: string) =>
  service.fetch(path, keyed({ title }, key));

const list = async (service: Service, path = '/api/todos') =>
  (await (await service.fetch(path)).json()) as TodoJson[];

const createKeyed = (service: Service, key: string) =>
  service.fetch(LISTS_PATH, keyed({ title: 'Groceries' }, key));

/** Makes and deletes `count` lists, each with a key of its own; the keys, oldest first. */
async function makeAndDeleteKeyed(service: Service, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, () => `"${crypto.randomUUID()}"`);
  for (const key of keys) {
    const { id } = await (await createKeyed(service, key)).json();
    expect((await service.fetch(listPathOf(id), { method: 'DELETE' })).status).toBe(204);
  }
  return keys;
}

/** How many rows `table` holds in `file`, read as another process would. */
function rowsIn(file: string, table: string): number {
  const db = new DatabaseSync(file);
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Turns `file` back into format 1, which kept an item's key beside its kept change. */
function asFormatOne(file: string): void {
  const db = new DatabaseSync(file);
  for (const statement of TO_FORMAT_ONE) db.exec(statement);
  db.close();
}

describe('Idempotency-Key with the lists kept in SQLite', () => {
  it('answers a retried item create as the first after a restart, making nothing', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    const before = await list(first);
    first.app.close();
    const second = sqliteService(opened(file));
    const retry = await answerOf(await createItem(second, 'Buy milk'));
    expect([retry, await list(second)]).toEqual([answered, before]);
  });

  it('answers a retried create on a named list as the first after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const { id } = await (await first.fetch(LISTS_PATH, { method: 'POST' })).json();
    const todos = namedListPaths(id).todos;
    const answered = await answerOf(await createItem(first, 'Buy milk', todos));
    first.app.close();
    const second = sqliteService(opened(file));
    expect(await answerOf(await createItem(second, 'Buy milk', todos))).toEqual(answered);
  });

  it('refuses a reused key with another body with 422 after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    await createItem(first, 'Buy milk');
    first.app.close();
    await expectProblem(await createItem(sqliteService(opened(file)), 'Bread'), 422);
  });

  it('answers a retried item create as the first after a restart, its change no longer kept', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file), { replayEvents: 1 });
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    await first.fetch('/api/todos', sendJson('POST', { title: 'Bread' }));
    await first.fetch('/api/todos', sendJson('POST', { title: 'Jam' }));
    first.app.close();
    const second = sqliteService(opened(file), { replayEvents: 1 });
    expect(await answerOf(await createItem(second, 'Buy milk'))).toEqual(answered);
  });

  it('takes a key as new after a restart once limits.idempotencyKeyHours have passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    first.app.close();
    vi.setSystemTime(Date.now() + DEFAULT_APP_CONFIG.limits.idempotencyKeyHours * 3_600_000);
    const again = await answerOf(await createItem(sqliteService(opened(file)), 'Buy milk'));
    expect([again.status, again.location === answered.location]).toEqual([201, false]);
  });

  it('keeps no more rows in item_keys than limits.maxItems plus 1024', async () => {
    const file = freshFile();
    const maxItems = 32;
    const service = sqliteService(opened(file), { maxItems });
    // More keys than the bound, made and deleted a list's worth at a time: only trimming keeps
    // the rows under it.
    for (let made = 0; made < FOLD_EVERY + 2 * maxItems; made += maxItems) {
      const keys = Array.from({ length: maxItems }, (_, index) => `"k${made + index}"`);
      const created = await Promise.all(
        keys.map((key) => createItem(service, 'a', undefined, key)),
      );
      const deletes = created.map((answer) => answer.headers.get('location')!);
      await Promise.all(deletes.map((path) => service.fetch(path, { method: 'DELETE' })));
    }
    expect(FOLD_EVERY).toBe(1024);
    expect(rowsIn(file, 'item_keys')).toBeLessThanOrEqual(maxItems + FOLD_EVERY);
  });

  it('keeps a key in its window through a fold, answering its retry as the first after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    // Enough changes for the list to fold them into its items, and trim its keys, once.
    const { id } = JSON.parse(answered.body) as TodoJson;
    const replace = sendJson('PUT', { title: 'Buy milk', completed: true });
    for (let change = 0; change < FOLD_EVERY; change += 1) {
      await first.fetch(`/api/todos/${id}`, replace);
    }
    first.app.close();
    expect(await answerOf(await createItem(sqliteService(opened(file)), 'Buy milk'))).toEqual(
      answered,
    );
  });

  it('removes the rows of keys past their window when their list opens', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const file = freshFile();
    const first = sqliteService(opened(file));
    await createItem(first, 'Buy milk');
    first.app.close();
    vi.setSystemTime(Date.now() + DEFAULT_APP_CONFIG.limits.idempotencyKeyHours * 3_600_000);
    sqliteService(opened(file)).app.close();
    expect(rowsIn(file, 'item_keys')).toBe(0);
  });

  it('reads a file of format 1, answering its kept item keys as the first', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await createItem(first, 'Buy milk'));
    first.app.close();
    asFormatOne(file);
    const retry = await answerOf(await createItem(sqliteService(opened(file)), 'Buy milk'));
    expect([retry, rowsIn(file, 'item_keys')]).toEqual([answered, 1]);
  });

  it('answers a retried list create as the first after a restart', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const answered = await answerOf(await first.fetch(LISTS_PATH, keyed({ title: 'Groceries' })));
    first.app.close();
    const retry = await sqliteService(opened(file)).fetch(
      LISTS_PATH,
      keyed({ title: 'Groceries' }),
    );
    expect(await answerOf(retry)).toEqual(answered);
  });

  it('refuses the key of a deleted list with 410 after a restart, the list staying deleted', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    const { id } = await (await first.fetch(LISTS_PATH, keyed({ title: 'Groceries' }))).json();
    await first.fetch(listPathOf(id), { method: 'DELETE' });
    first.app.close();
    const second = sqliteService(opened(file));
    await expectProblem(await second.fetch(LISTS_PATH, keyed({ title: 'Groceries' })), 410);
    expect((await second.fetch(listPathOf(id))).status).toBe(404);
  });

  it('remembers the keys of the same latest deletions after a restart', async () => {
    const file = freshFile();
    const keys = await makeAndDeleteKeyed(sqliteService(opened(file), { maxLists: 2 }), 3);
    const second = sqliteService(opened(file), { maxLists: 2 });
    const statuses = [];
    for (const key of [...keys].reverse()) statuses.push((await createKeyed(second, key)).status);
    expect(statuses).toEqual([410, 410, 201]);
  });

  it('forgets the oldest deleted key first after a restart', async () => {
    const file = freshFile();
    const [older, newer] = await makeAndDeleteKeyed(
      sqliteService(opened(file), { maxLists: 2 }),
      2,
    );
    const second = sqliteService(opened(file), { maxLists: 2 });
    await makeAndDeleteKeyed(second, 1);
    const statuses = [(await createKeyed(second, newer!)).status];
    statuses.push((await createKeyed(second, older!)).status);
    expect(statuses).toEqual([410, 201]);
  });

  it('keeps no more rows in list_keys than limits.maxLists deleted lists', async () => {
    const file = freshFile();
    await makeAndDeleteKeyed(sqliteService(opened(file), { maxLists: 2 }), 5);
    expect(rowsIn(file, 'list_keys')).toBe(2);
  });

  it('answers 409 to a retry while the first create waits for its commit', async () => {
    const { held, service } = heldService(freshFile());
    const first = createItem(service, 'Buy milk');
    await held.asked();
    await expectProblem(await createItem(service, 'Buy milk'), 409);
    held.commit();
    const answered = await answerOf(await first);
    expect([answered.status, await list(service)]).toEqual([201, [JSON.parse(answered.body)]]);
  });

  it('takes the key as new once the first create with it failed to commit', async () => {
    const { held, service } = heldService(freshFile());
    const first = createItem(service, 'Buy milk');
    await held.asked();
    held.fail(new Error('database or disk is full'));
    expect((await first).status).toBe(500);
    const retry = createItem(service, 'Buy milk');
    await held.asked();
    held.commit();
    expect([(await retry).status, (await list(service)).length]).toEqual([201, 1]);
  });
});
