// The bench starts the Node host itself, in a child of its own, rather than `npm start`: it
// fills the list straight in the store and counts the open streams, which the built entry
// point does not expose.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../src/hosts/node/logger.ts';
import { DEFAULT_NODE_CONFIG } from '../src/hosts/node/node-config.ts';
import { startNodeServer } from '../src/hosts/node/server.ts';
import { openStorageAt } from '../src/hosts/node/storage-file.ts';
import { childMaxItems, serveParent, type ChildServer } from './child-ipc.ts';

/**
 * The Node host with the prod profile's settings on loopback, with room for every stream the
 * bench opens and a list of `maxItems`, kept in the SQLite file `storageFile` if given. It logs
 * as in prod, to stdout, which the parent reads and drops. Built into dist-bench, it finds no
 * page: only /api is asked for.
 */
async function startNodeHost(maxItems: number, storageFile?: string): Promise<ChildServer> {
  const storage = storageFile === undefined ? undefined : openStorageAt(storageFile);
  const running = await startNodeServer(
    {
      ...DEFAULT_NODE_CONFIG,
      host: '127.0.0.1',
      port: 0,
      // Room for the lists section's 10,000 lists and its warm-up, all made from 127.0.0.1, and
      // for the lists POST /api/lists makes as fast as it can.
      limits: {
        ...DEFAULT_NODE_CONFIG.limits,
        maxItems,
        maxLists: 20_000,
        listsPerMinute: 10_000_000,
      },
      // Raised over prod's 10,000 so the fan-out's 10,000 streams and its warm-up all fit, every
      // one of them from 127.0.0.1.
      sse: { ...DEFAULT_NODE_CONFIG.sse, maxClients: 20_000, maxClientsPerAddress: 20_000 },
    },
    createLogger(DEFAULT_NODE_CONFIG.log),
    storage?.stores,
  );
  const { lists, events } = running.app;
  const { store } = lists.defaultList!;
  return {
    url: running.url,
    openStreams: () => events.openCount,
    create: async (title, completed) => (await store.create({ title, completed })).todo.id,
    createList: async (title) => {
      const { info } = await lists.create(title);
      await lists.named.get(info.id)!.store.create({ title: 'Water the plants', completed: false });
      return info.id;
    },
    ...(storage && { commits: () => storage.commits.counts }),
  };
}

/** With the argument `sqlite`, a fresh database on the temporary disk, gone with the child. */
function storageFile(): string | undefined {
  if (process.argv[3] !== 'sqlite') return undefined;
  const folder = mkdtempSync(join(tmpdir(), 'todo-bench-sqlite-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return join(folder, 'todos.sqlite');
}

serveParent(await startNodeHost(childMaxItems(), storageFile()));
