import { describe, expect, it } from 'vitest';
import { FOLD_EVERY } from '../src/storage/list-writer.ts';
import { expectProblem, sendJson, type TodoJson } from './support/api.ts';
import { freshFile } from './support/fresh-file.ts';
import { failingWrites, opened, sqliteService } from './support/sqlite-service.ts';

type Service = ReturnType<typeof sqliteService>;

/**
 * Makes `count` changes, one after another: creates, replaces (titles and `completed`) and
 * deletes, mixed so that some items outlive a fold, some are made and deleted between two, and
 * some made before one are changed after it. Each must be answered 2xx.
 */
async function changeMany(service: Service, count: number, ids: string[] = []) {
  for (let made = 0; made < count; made += 1) {
    let response: Response;
    if (made % 5 === 3 && ids.length > 3) {
      response = await service.fetch(`/api/todos/${ids.splice(made % 3, 1)[0]}`, {
        method: 'DELETE',
      });
    } else if (made % 5 === 1 && ids.length > 0) {
      const id = ids[made % ids.length]!;
      const fields = { title: `replaced ${made}`, completed: made % 2 === 0 };
      response = await service.fetch(`/api/todos/${id}`, sendJson('PUT', fields));
    } else {
      response = await service.fetch('/api/todos', sendJson('POST', { title: `item ${made}` }));
      ids.push(((await response.clone().json()) as TodoJson).id);
    }
    if (!response.ok) throw new Error(`change ${made} was answered ${response.status}`);
  }
  return ids;
}

/** The list as a reader sees it: its ETag and its items, in order. */
async function listOf(service: Service) {
  const response = await service.fetch('/api/todos');
  return { etag: response.headers.get('etag'), todos: (await response.json()) as TodoJson[] };
}

describe('a list kept in SQLite, its item rows folded from its changes', () => {
  it('comes back with every item as it was, in order, after two folds and more', async () => {
    const file = freshFile();
    const first = sqliteService(opened(file));
    await changeMany(first, 2 * FOLD_EVERY + 200);
    const before = await listOf(first);
    first.app.close();
    const after = await listOf(sqliteService(opened(file)));
    expect(after).toEqual(before);
  });

  it.each([0, 10])(
    'keeps no more change rows than sse.replayEvents and a fold’s worth (replayEvents %i)',
    async (replayEvents) => {
      const db = opened(freshFile());
      await changeMany(sqliteService(db, { replayEvents }), FOLD_EVERY + 200);
      const counted = db.all<{ rows: number }>('SELECT count(*) AS rows FROM list_changes');
      expect(counted[0]!.rows).toBeLessThan(replayEvents + FOLD_EVERY);
    },
  );

  it('comes back as it was after the commit of a fold failed, the next fold taking its changes in', async () => {
    const file = freshFile();
    const { db, control } = failingWrites(opened(file));
    const first = sqliteService(db);
    // The change after these is the one that folds.
    const ids = await changeMany(first, FOLD_EVERY - 1);
    control.failing = true;
    await expectProblem(
      await first.fetch('/api/todos', sendJson('POST', { title: 'never kept' })),
      500,
    );
    control.failing = false;
    await changeMany(first, 50, ids);
    const before = await listOf(first);
    first.app.close();
    const after = await listOf(sqliteService(opened(file)));
    expect([after, before.todos.some((todo) => todo.title === 'never kept')]).toEqual([
      before,
      false,
    ]);
  });
});
