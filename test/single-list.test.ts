import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../src/app.ts';
import { openSqliteFile } from '../src/hosts/node/storage-file.ts';
import { listPathOf, namedListPaths } from '../src/model/resources.ts';
import { newListId } from '../src/lists/list-id.ts';
import { singleList } from '../src/lists/single-list.ts';
import { sendJson } from './support/api.ts';
import { openStream } from './support/sse.ts';

/** A list id as a service makes them: view ids are derived from ids of 16 or 32 bytes. */
const LIST_ID = newListId();

/**
 * The handler of one place that holds one named list, as a Durable Object does, over a SQLite
 * database in memory; `deleteAll` wipes it, or fails while `failing` is set.
 */
function place() {
  const sql = openSqliteFile(':memory:');
  onTestFinished(() => sql.close());
  const control = { failing: false };
  const tables = () =>
    sql.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'");
  const app = createApp({
    lists: singleList({
      listId: LIST_ID,
      keepDefault: false,
      sql,
      deleteAll: async () => {
        if (control.failing) throw new Error('storage unavailable');
        for (const { name } of tables()) sql.run(`DROP TABLE ${name}`);
      },
    }),
    host: { reportError: () => {} },
  });
  onTestFinished(() => app.close());
  const fetch = (path: string, init?: RequestInit) =>
    app.fetch(new Request(new URL(path, 'http://localhost'), init));
  return { app, fetch, control, tables };
}

describe('the one named list of a place, such as a Durable Object', () => {
  it('has no list, and writes nothing, until its list is made', async () => {
    const { fetch, tables } = place();
    const statuses = [
      (await fetch(listPathOf(LIST_ID))).status,
      (await fetch(namedListPaths(LIST_ID).todos, sendJson('POST', { title: 'a' }))).status,
    ];
    expect([statuses, tables()]).toEqual([[404, 404], []]);
  });

  it('serves its list once made, and no list of another id', async () => {
    const { app, fetch } = place();
    await app.lists.create('Ours');
    const [ours, other] = [
      await fetch(listPathOf(LIST_ID)),
      await fetch(listPathOf('another-list-of-22-char')),
    ];
    expect([await ours.json(), other.status]).toEqual([
      { id: LIST_ID, title: 'Ours', viewId: expect.any(String) },
      404,
    ]);
  });

  it('keeps the list and its streams when its storage cannot be wiped', async () => {
    const { app, fetch, control } = place();
    await app.lists.create('Kept');
    const stream = await openStream({ paths: namedListPaths(LIST_ID), fetch });
    await stream.nextEvent();
    control.failing = true;
    const refused = await fetch(listPathOf(LIST_ID), { method: 'DELETE' });
    control.failing = false;
    await fetch(listPathOf(LIST_ID), sendJson('PUT', { title: 'Still here' }));
    const next = await stream.nextEvent();
    stream.close();
    expect([refused.status, next.event, (await fetch(listPathOf(LIST_ID))).status]).toEqual([
      500,
      'list-renamed',
      200,
    ]);
  });

  it('wipes its storage on delete, then ends its streams after list-deleted', async () => {
    const { app, fetch, tables } = place();
    await app.lists.create('Gone');
    const stream = await openStream({ paths: namedListPaths(LIST_ID), fetch });
    await stream.nextEvent();
    const deleted = await fetch(listPathOf(LIST_ID), { method: 'DELETE' });
    const last = await stream.nextBlock();
    expect([deleted.status, tables(), last, await stream.nextBlock()]).toEqual([
      204,
      [],
      expect.objectContaining({ event: 'list-deleted' }),
      undefined,
    ]);
  });
});
