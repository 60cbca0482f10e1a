import { describe, expect, it } from 'vitest';
import { listPathOf, namedListPaths } from '../src/model/resources.ts';
import { openStorageAt } from '../src/hosts/node/storage-file.ts';
import type { SqlDatabase } from '../src/storage/sql.ts';
import { expectProblem, sendJson, type TodoJson } from './support/api.ts';
import { freshFile } from './support/fresh-file.ts';
import { failingWrites, opened, sqliteService } from './support/sqlite-service.ts';
import { openStream } from './support/sse.ts';

/** The handler over the lists kept in `db`; `replayEvents` and `reportError` as given. */
const appOn = (db: SqlDatabase, replayEvents?: number, reportError?: (error: unknown) => void) =>
  sqliteService(db, { replayEvents, reportError });

describe('the list kept in SQLite', () => {
  it('answers a create it could not store with a generic 500', async () => {
    const { db, control } = failingWrites(opened(freshFile()));
    const service = appOn(db);
    control.failing = true;
    const problem = await expectProblem(
      await service.fetch('/api/todos', sendJson('POST', { title: 'Buy milk' })),
      500,
    );
    expect(problem.detail).not.toContain('disk');
  });

  it('changes nothing and announces nothing when a write fails', async () => {
    const { db, control } = failingWrites(opened(freshFile()));
    const service = appOn(db);
    await service.fetch('/api/todos', sendJson('POST', { title: 'kept' }));
    const before = await (await service.fetch('/api/todos')).text();
    const stream = await openStream(service);
    await stream.nextEvent(); // the snapshot
    control.failing = true;
    await service.fetch('/api/todos', sendJson('POST', { title: 'lost' }));
    control.failing = false;
    await service.fetch('/api/todos', sendJson('POST', { title: 'after' }));
    const next = await stream.nextEvent();
    stream.close();
    expect([
      (next.data as TodoJson).title,
      await (await service.fetch('/api/todos')).text(),
    ]).toEqual(['after', before.replace(/]$/, `,${JSON.stringify(next.data)}]`)]);
  });

  it('goes on with the same run and the next sequence when opened again', async () => {
    const file = freshFile();
    const first = appOn(opened(file));
    await first.fetch('/api/todos', sendJson('POST', { title: 'a' }));
    const etag = (await first.fetch('/api/todos')).headers.get('etag')!;
    first.app.close();
    const second = appOn(opened(file));
    await second.fetch('/api/todos', sendJson('POST', { title: 'b' }));
    const [run, sequence] = etag.slice(1, -1).split('.');
    expect((await second.fetch('/api/todos')).headers.get('etag')).toBe(
      `"${run}.${Number(sequence) + 1}"`,
    );
  });

  /** Two services opened on one file, each keeping `replayEvents` changes; the first creates. */
  const twoServicesOnOneFile = async (replayEvents: number) => {
    const file = freshFile();
    const errors: unknown[] = [];
    const first = appOn(opened(file), replayEvents);
    const second = appOn(opened(file), replayEvents, (error) => errors.push(error));
    await first.fetch('/api/todos', sendJson('POST', { title: 'first' }));
    const refused = await second.fetch('/api/todos', sendJson('POST', { title: 'second' }));
    return { file, errors, refused };
  };

  it.each([0, 1000])(
    'answers 500 to a write after another service changed the same file (replayEvents %i)',
    async (replayEvents) => {
      const { refused } = await twoServicesOnOneFile(replayEvents);
      await expectProblem(refused, 500);
    },
  );

  it('keeps only the first service’s item when a second one writes to the same file', async () => {
    const { file } = await twoServicesOnOneFile(0);
    const titles = (
      (await (await appOn(opened(file)).fetch('/api/todos')).json()) as TodoJson[]
    ).map((todo) => todo.title);
    expect(titles).toEqual(['first']);
  });

  it('says in the log that another service writes to the same file', async () => {
    const { errors } = await twoServicesOnOneFile(1000);
    expect(String(errors[0])).toContain('another service');
  });

  /**
   * Creates a, b, c and d on a list that keeps 2 changes, then opens it again: the ids of
   * the four changes, and the first event of a stream that resumes from the `from`th.
   */
  const resumedAfterReopening = async (from: number) => {
    const file = freshFile();
    const first = appOn(opened(file), 2);
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c', 'd']) {
      await first.fetch('/api/todos', sendJson('POST', { title }));
      ids.push((await first.fetch('/api/todos')).headers.get('etag')!.slice(1, -1));
    }
    first.app.close();
    const second = appOn(opened(file), 2);
    const stream = await openStream(second, { headers: { 'last-event-id': ids[from]! } });
    const event = await stream.nextEvent();
    stream.close();
    return { ids, event };
  };

  it('keeps only the latest sse.replayEvents changes: an older id gets a snapshot', async () => {
    expect((await resumedAfterReopening(0)).event.event).toBe('snapshot');
  });

  it('replays to a client that resumes across a run that kept no changes the change it missed', async () => {
    const file = freshFile();
    const first = appOn(opened(file), 5);
    for (const title of ['a', 'b', 'c']) {
      await first.fetch('/api/todos', sendJson('POST', { title }));
    }
    const lastSeen = (await first.fetch('/api/todos')).headers.get('etag')!.slice(1, -1);
    first.app.close();
    const keepingNone = appOn(opened(file), 0);
    await keepingNone.fetch('/api/todos', sendJson('POST', { title: 'missed' }));
    keepingNone.app.close();
    const third = appOn(opened(file), 5);
    const stream = await openStream(third, { headers: { 'last-event-id': lastSeen } });
    const event = await stream.nextEvent();
    stream.close();
    expect([event.event, (event.data as TodoJson).title]).toEqual(['created', 'missed']);
  });

  it('replays the kept changes after an id it still holds', async () => {
    const { ids, event } = await resumedAfterReopening(2);
    expect([event.event, event.id, (event.data as TodoJson).title]).toEqual([
      'created',
      ids[3],
      'd',
    ]);
  });

  it('brings back every named list, its title, items, ETags and event ids, when opened again', async () => {
    const file = freshFile();
    const first = appOn(opened(file));
    const lists: string[] = [];
    for (const title of ['Groceries', 'Chores']) {
      const created = await first.fetch('/api/lists', sendJson('POST', { title }));
      const { id } = (await created.json()) as { id: string };
      await first.fetch(namedListPaths(id).todos, sendJson('POST', { title: `${title} 1` }));
      await first.fetch(listPathOf(id), sendJson('PUT', { title: `${title}!` }));
      lists.push(id);
    }
    const seen = async (service: ReturnType<typeof appOn>) =>
      Promise.all(
        lists.map(async (id) => {
          const [list, todos] = [
            await service.fetch(listPathOf(id)),
            await service.fetch(namedListPaths(id).todos),
          ];
          return [
            await list.json(),
            list.headers.get('etag'),
            await todos.json(),
            todos.headers.get('etag'),
          ];
        }),
      );
    const before = await seen(first);
    first.app.close();
    expect(await seen(appOn(opened(file)))).toEqual(before);
  });

  it('replays a named list’s changes, its rename among them, after a restart', async () => {
    const file = freshFile();
    const first = appOn(opened(file));
    const { id, viewId } = (await (await first.fetch('/api/lists', { method: 'POST' })).json()) as {
      id: string;
      viewId: string;
    };
    const etag = (await first.fetch(namedListPaths(id).todos)).headers.get('etag')!;
    await first.fetch(listPathOf(id), sendJson('PUT', { title: 'Renamed' }));
    first.app.close();
    const second = appOn(opened(file));
    const stream = await openStream(second, {
      path: namedListPaths(id).sse,
      headers: { 'last-event-id': etag.slice(1, -1) },
    });
    const event = await stream.nextEvent();
    stream.close();
    expect([event.event, event.data]).toEqual(['list-renamed', { id, title: 'Renamed', viewId }]);
  });

  it('removes every row of a deleted list, and keeps it deleted when opened again', async () => {
    const file = freshFile();
    const db = opened(file);
    const first = appOn(db);
    const { id } = (await (await first.fetch('/api/lists', { method: 'POST' })).json()) as {
      id: string;
    };
    await first.fetch(namedListPaths(id).todos, sendJson('POST', { title: 'a' }));
    await first.fetch(listPathOf(id), { method: 'DELETE' });
    const rows = ['lists', 'list_items', 'list_changes'].map(
      (table) => db.all(`SELECT 1 FROM ${table} WHERE list = ?`, id).length,
    );
    first.app.close();
    const status = (await appOn(opened(file)).fetch(listPathOf(id))).status;
    expect([rows, status]).toEqual([[0, 0, 0], 404]);
  });

  it('refuses a file of tables from before formats were numbered, saying so, and changes nothing', () => {
    const file = freshFile();
    const old = opened(file);
    // The one list of the service from before there were named lists.
    old.run('CREATE TABLE list_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    old.run("INSERT INTO list_state VALUES ('run', 'abcd1234'), ('sequence', '2')");
    const tables = () => old.all('SELECT name, sql FROM sqlite_master ORDER BY name');
    const before = tables();
    expect(() => openStorageAt(file)).toThrow(
      `cannot use the storage file ${file}: its tables are of a format from before formats ` +
        'were numbered, which this version of the service does not read (it reads format 2, ' +
        'and upgrades 1); nothing in it was changed. Move it aside to start with empty lists, ' +
        'or run the version that wrote it.',
    );
    expect(tables()).toEqual(before);
  });

  it('refuses a file of another format, naming it', async () => {
    const file = freshFile();
    const db = opened(file);
    appOn(db).app.close();
    db.run('UPDATE storage_format SET version = 3');
    expect(() => openStorageAt(file)).toThrow(/its tables are of format 3, which this version/);
  });

  it('brings back titles exactly as sent, a lone surrogate among them, when opened again', async () => {
    const file = freshFile();
    const first = appOn(opened(file));
    const title = 'half a cat \ud83d and \u0000 a NUL';
    const created = await first.fetch('/api/lists', sendJson('POST', { title }));
    const { id } = (await created.json()) as { id: string };
    await first.fetch(namedListPaths(id).todos, sendJson('POST', { title }));
    await first.fetch('/api/todos', sendJson('POST', { title }));
    first.app.close();
    const second = appOn(opened(file));
    const titles = [
      ((await (await second.fetch(listPathOf(id))).json()) as { title: string }).title,
      ((await (await second.fetch(namedListPaths(id).todos)).json()) as TodoJson[])[0]!.title,
      ((await (await second.fetch('/api/todos')).json()) as TodoJson[])[0]!.title,
    ];
    expect(titles).toEqual([title, title, title]);
  });
});
