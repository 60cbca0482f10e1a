// The one module of bench/ that imports the service's code. The bench starts the Node host
// itself, in a child of its own, rather than `npm start`: it fills the list straight in the
// store and counts the open streams, which the built entry point does not expose.
import { createLogger, logRequest } from '../src/hosts/node/logger.ts';
import { DEFAULT_NODE_CONFIG } from '../src/hosts/node/node-config.ts';
import { startNodeServer } from '../src/hosts/node/server.ts';
import { openStorageAt } from '../src/hosts/node/storage-file.ts';
import type { ChildServer } from './child-ipc.ts';

/** The prod profile's settings the soak keeps to. */
export const PROD_SETTINGS = {
  maxItems: DEFAULT_NODE_CONFIG.limits.maxItems,
  replayEvents: DEFAULT_NODE_CONFIG.sse.replayEvents,
};

/**
 * What the Node host does to log a request, with the prod profile's logger to stdout: for a
 * baseline that writes the same line.
 */
export function requestLogger(): (request: Request, response: Response, started: number) => void {
  const logger = createLogger(DEFAULT_NODE_CONFIG.log);
  return (request, response, started) => logRequest(logger, request, response, started);
}

/**
 * The Node host with the prod profile's settings on loopback, with room for every stream the
 * bench opens and a list of `maxItems`, kept in the SQLite file `storageFile` if given. It logs
 * as in prod, to stdout, which the parent reads and drops. Built into dist-bench, it finds no
 * page: only /api is asked for.
 */
export async function startNodeHost(maxItems: number, storageFile?: string): Promise<ChildServer> {
  const storage = storageFile === undefined ? undefined : openStorageAt(storageFile);
  const running = await startNodeServer(
    {
      ...DEFAULT_NODE_CONFIG,
      host: '127.0.0.1',
      port: 0,
      // Room for the lists section's 10,000 lists and its warm-up.
      limits: { ...DEFAULT_NODE_CONFIG.limits, maxItems, maxLists: 20_000 },
      // Raised over prod's 10,000 so the fan-out's 10,000 streams and its warm-up all fit.
      sse: { ...DEFAULT_NODE_CONFIG.sse, maxClients: 20_000 },
    },
    createLogger(DEFAULT_NODE_CONFIG.log),
    { stores: storage?.stores },
  );
  const { lists, events } = running.app;
  const { store } = lists.defaultList!;
  return {
    url: running.url,
    openStreams: () => events.openCount,
    create: async (title, completed) => (await store.create({ title, completed })).todo.id,
    createList: async (title) => {
      const { list } = await lists.create(title);
      await lists.find(list.id)!.store.create({ title: 'Water the plants', completed: false });
      return list.id;
    },
    ...(storage && { commits: () => storage.commits.counts }),
  };
}
