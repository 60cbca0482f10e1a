import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIST_PATHS, listPathOf, namedListPaths } from '../../src/model/resources.ts';
import { FOLD_EVERY } from '../../src/storage/list-writer.ts';
import { answerOf, keyed } from '../conformance/idempotency.ts';
import { sendJson, type TodoJson } from '../support/api.ts';
import { freshFile } from '../support/fresh-file.ts';
import type { TestService } from '../support/hosts.ts';
import { openStream, type SseEvent, type StreamReader } from '../support/sse.ts';
import { serviceAt } from '../support/node-server.ts';
import { ServiceProcess } from '../support/service-process.ts';

const started: ServiceProcess[] = [];
afterEach(() => started.splice(0).forEach((service) => service.stop()));

/** The built service with its list kept in `file`, as `npm start` runs it. */
async function startOn(file: string) {
  const process = new ServiceProcess([], { STORAGE_FILE: file });
  started.push(process);
  const url = await process.url();
  return { process, service: serviceAt(url) as TestService };
}

/**
 * The events a client reads before it drops off, `count` of them, the snapshot included: the
 * changes after those it misses, as a client on a train does.
 */
async function eventsBeforeLeaving(stream: StreamReader, count: number): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  while (seen.length < count) seen.push(await stream.nextEvent());
  stream.close();
  return seen;
}

/** How many clients write at once while the service is stopped: their changes share commits. */
const WRITERS = 50;
/** Creates enough that the list's item rows were folded once, and changes came after. */
const PAST_A_FOLD = FOLD_EVERY + 100;

/**
 * `WRITERS` clients creating items one after another, each on a connection of its own, until
 * `stop`. Each keeps, in order, the items it was answered 201 for; `sent` has every title sent.
 */
function creating(service: TestService) {
  const acknowledged: TodoJson[][] = Array.from({ length: WRITERS }, () => []);
  const sent = new Set<string>();
  let stopped = false;
  const clients = acknowledged.map(async (mine, client) => {
    for (let n = 0; !stopped; n += 1) {
      const title = `client ${client} item ${n}`;
      sent.add(title);
      try {
        const response = await service.fetch('/api/todos', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
        });
        if (response.status === 201) mine.push((await response.json()) as TodoJson);
      } catch {
        return; // the server is gone
      }
    }
  });
  return {
    acknowledged,
    sent,
    count: () => acknowledged.reduce((total, mine) => total + mine.length, 0),
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

/** Items in list order, applying `events` (a snapshot, then changes) as a client does. */
function applied(events: readonly SseEvent[]): TodoJson[] {
  const items = new Map<string, TodoJson>();
  for (const { event, data } of events) {
    if (event === 'snapshot') {
      items.clear();
      for (const todo of data as TodoJson[]) items.set(todo.id, todo);
    } else if (event === 'deleted') items.delete((data as TodoJson).id);
    else items.set((data as TodoJson).id, data as TodoJson);
  }
  return [...items.values()];
}

describe.each(['SIGKILL', 'SIGTERM'] as const)(
  `the list kept in SQLite, %s amid ${WRITERS} concurrent writers`,
  (signal) => {
    /**
     * A service stopped by `signal` while the writers create and a stream follows, once at least
     * `acknowledged` creates were answered.
     */
    const stoppedMidTraffic = async (acknowledged: number) => {
      const file = freshFile();
      const first = await startOn(file);
      const stream = await openStream(first.service);
      const traffic = creating(first.service);
      const seen = await eventsBeforeLeaving(stream, 20);
      await expect.poll(traffic.count, { timeout: 10_000 }).toBeGreaterThanOrEqual(acknowledged);
      first.process.child.kill(signal);
      await first.process.exited;
      await traffic.stop();
      const second = await startOn(file);
      const list = (await (await second.service.fetch('/api/todos')).json()) as TodoJson[];
      return { traffic, seen, list, service: second.service };
    };

    it('keeps every create that was answered 201, each client in its order', async () => {
      const { traffic, list } = await stoppedMidTraffic(PAST_A_FOLD);
      for (const mine of traffic.acknowledged) {
        expect(list.filter((todo) => mine.some((acked) => acked.id === todo.id))).toEqual(mine);
      }
    });

    it('holds no item that is not whole, nor more than the creates in flight', async () => {
      const { traffic, list } = await stoppedMidTraffic(PAST_A_FOLD);
      for (const todo of list) {
        expect(Object.keys(todo)).toEqual(['id', 'title', 'completed']);
        expect([traffic.sent.has(todo.title), todo.completed]).toEqual([true, false]);
      }
      expect(list.length - traffic.count()).toBeLessThanOrEqual(traffic.acknowledged.length);
    });

    it('resumes a stream from its last event id with the changes it missed, not a snapshot', async () => {
      // The client left after 20 events, and hundreds more were acknowledged after: fewer than
      // the changes kept for clients that resume.
      const { seen, service } = await stoppedMidTraffic(500);
      const lastId = seen.at(-1)!.id;
      const resumed = await openStream(service, { headers: { 'last-event-id': lastId } });
      const after: SseEvent[] = [];
      const marker = (await (
        await service.fetch('/api/todos', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'after the restart' }),
        })
      ).json()) as TodoJson;
      do after.push(await resumed.nextEvent());
      while ((after.at(-1)!.data as TodoJson).id !== marker.id);
      resumed.close();
      const list = (await (await service.fetch('/api/todos')).json()) as TodoJson[];
      expect(after.filter(({ event }) => event === 'snapshot')).toEqual([]);
      expect(applied([...seen, ...after])).toEqual(list);
    });
  },
);

describe('the storage file', () => {
  it('stops the start with a message naming a file that cannot be made', async () => {
    const process = new ServiceProcess([], { STORAGE_FILE: '/nonexistent-folder/todos.sqlite' });
    started.push(process);
    expect((await process.exited).code).toBe(1);
    expect(process.stdout).toContain(
      'cannot use the storage file /nonexistent-folder/todos.sqlite',
    );
    expect(process.stdout).toContain('Set STORAGE_FILE, or change storage.file in');
  });

  it('says where the list is kept when it starts', async () => {
    const file = freshFile();
    const { process } = await startOn(file);
    expect(process.stdout).toContain(`"storage":"${file}"`);
  });

  it('writes nothing to stderr from start to stop but, on Node 22, its one warning that node:sqlite is experimental', async () => {
    const { process } = await startOn(freshFile());
    process.child.kill('SIGTERM');
    await process.exited;
    const experimental =
      /^\(node:\d+\) ExperimentalWarning: SQLite is an experimental feature.*\n.*\n$/;
    if (globalThis.process.versions.node.startsWith('22.')) {
      expect(process.stderr).toMatch(experimental);
    } else {
      expect(process.stderr).toBe('');
    }
  });

  it('stops the start with a message saying a file of an older format is not read', async () => {
    const file = freshFile();
    const old = new DatabaseSync(file);
    old.exec('CREATE TABLE list_state (key TEXT PRIMARY KEY, value TEXT)');
    old.close();
    const process = new ServiceProcess([], { STORAGE_FILE: file });
    started.push(process);
    expect((await process.exited).code).toBe(1);
    expect(process.stdout).toContain(
      `cannot use the storage file ${file}: its tables are of a format from before formats ` +
        'were numbered, which this version of the service does not read',
    );
  });

  it('stops the start with a message naming a path that is a folder', async () => {
    const folder = dirname(freshFile());
    const process = new ServiceProcess([], { STORAGE_FILE: folder });
    started.push(process);
    expect((await process.exited).code).toBe(1);
    expect(process.stdout).toContain(`cannot use the storage file ${folder}`);
  });

  it('keeps the list in memory when STORAGE_FILE is set but empty', async () => {
    const process = new ServiceProcess([], { STORAGE_FILE: '' });
    started.push(process);
    await process.url();
    expect(process.stdout).toContain('"storage":"memory"');
  });
});

describe('named lists kept in SQLite, SIGKILL between changes', () => {
  it('brings back every list with its title and items, and not the deleted one', async () => {
    const file = freshFile();
    const first = await startOn(file);
    const make = async (title: string) =>
      (
        (await (await first.service.fetch('/api/lists', sendJson('POST', { title }))).json()) as {
          id: string;
        }
      ).id;
    const [kept, renamed, deleted] = [await make('Kept'), await make('Old'), await make('Gone')];
    for (const id of [kept, renamed, deleted]) {
      await first.service.fetch(namedListPaths(id).todos, sendJson('POST', { title: `in ${id}` }));
    }
    await first.service.fetch(listPathOf(renamed), sendJson('PUT', { title: 'New' }));
    await first.service.fetch(listPathOf(deleted), { method: 'DELETE' });
    const seen = async (service: TestService) =>
      Promise.all(
        [kept, renamed, deleted].map(async (id) => {
          const [list, items] = [
            await service.fetch(listPathOf(id)),
            await service.fetch(namedListPaths(id).todos),
          ];
          // A 404's instance is the request's own id, which differs each time: leave it out.
          const body = async (response: Response) =>
            response.ok ? response.json() : { ...(await response.json()), instance: undefined };
          return [list.status, await body(list), items.status, await body(items)];
        }),
      );
    const before = await seen(first.service);
    first.process.child.kill('SIGKILL');
    await first.process.exited;
    const second = await startOn(file);
    expect(await seen(second.service)).toEqual(before);
    expect(before.map(([status]) => status)).toEqual([200, 200, 404]);
  });
});

describe('view ids kept in SQLite', () => {
  it('reads a list through the view id it was given before a restart', async () => {
    const file = freshFile();
    const first = await startOn(file);
    const made = await first.service.fetch('/api/lists', sendJson('POST', { title: 'Shared' }));
    const { viewId } = (await made.json()) as { viewId: string };
    first.process.child.kill('SIGKILL');
    await first.process.exited;
    const second = await startOn(file);
    const response = await second.service.fetch(listPathOf(viewId));
    expect([response.status, await response.json()]).toEqual([
      200,
      { id: viewId, title: 'Shared', viewId },
    ]);
  });
});

describe('Idempotency-Key kept in SQLite, SIGKILL between a create and its retry', () => {
  it('answers the retries of an item create and a list create as the first were', async () => {
    const file = freshFile();
    const first = await startOn(file);
    const sendBoth = async (service: TestService) => [
      await answerOf(await service.fetch('/api/todos', keyed({ title: 'Buy milk' }))),
      await answerOf(await service.fetch('/api/lists', keyed({ title: 'Groceries' }))),
    ];
    const answered = await sendBoth(first.service);
    first.process.child.kill('SIGKILL');
    await first.process.exited;
    const second = await startOn(file);
    const retried = await sendBoth(second.service);
    const items = await (await second.service.fetch('/api/todos')).json();
    expect([retried, items.length]).toEqual([answered, 1]);
  });
});
