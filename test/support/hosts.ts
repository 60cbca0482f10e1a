import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createApp, DEFAULT_MAX_LISTS, type App } from '../../src/app.ts';
import { DEFAULT_APP_CONFIG, type AppConfig } from '../../src/config.ts';
import { fileAssets, PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';
import { startNodeServer } from '../../src/hosts/node/server.ts';
import { openStorageAt } from '../../src/hosts/node/storage-file.ts';
import {
  DEFAULT_LIST_PATHS,
  LISTS_PATH,
  namedListPaths,
  type ListPaths,
} from '../../src/model/resources.ts';
import { localLists } from '../../src/lists/local-lists.ts';
import type { ListStores } from '../../src/storage/kept-lists.ts';
import { fetchFrom } from './bound-fetch.ts';
import { recordingLogger } from './log-lines.ts';
import { nodeConfig, SILENT } from './node-server.ts';

/** A running service that tests talk to through `fetch`, whatever hosts it. */
export interface TestService {
  /** The routes of the list under test: the default list's, or a named list's. */
  readonly paths: ListPaths;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `fetch` as the client at `address` (in 127.0.0.0/8), as the host learns a client's address. */
  fetchFrom(address: string, path: string, init?: RequestInit): Promise<Response>;
  /**
   * What the service still holds for event clients, all zero once every client has left: of
   * every list, or of the list `listId` where a host can only tell one list's.
   */
  streamStats(listId?: string): Promise<StreamStats>;
  /**
   * Stops the named list `listId` as `close` stops the default list, where a host holds each
   * list apart (one object a list); elsewhere `close` stops every list.
   */
  stopList?(listId: string): Promise<void>;
  /**
   * A count that grows whenever a list is made, so a test sees that a refused create made
   * none: the named lists held, or on workerd, the objects the worker has addressed.
   */
  countLists(): Promise<number>;
  /** Where a raw client connects, for a host served over TCP. */
  readonly origin?: string;
  /**
   * The lines the host logged since the last call that show it failing a request, where its log
   * is watched (workerd): each service's `close` fails on any left unclaimed.
   */
  newFailures?(): string[];
  close(): Promise<void>;
}

export interface StreamStats {
  openStreams: number;
  heartbeatRunning: boolean;
}

function streamStatsOf(app: App): StreamStats {
  return {
    openStreams: app.events.openCount,
    heartbeatRunning: app.events.heartbeatRunning,
  };
}

export interface ServiceOptions {
  limits?: Partial<AppConfig['limits']>;
  /** `limits.maxLists`, where the host bounds the lists it holds (`TestHost.boundsLists`). */
  maxLists?: number;
  sse?: Partial<AppConfig['sse']>;
  /** Where the service keeps its lists, in place of memory. */
  stores?: ListStores;
  /** Sees every unexpected error the service reports. */
  reportError?: (error: unknown) => void;
}

/** One way of hosting the handler; the conformance suite runs once per host. */
export interface TestHost {
  readonly name: string;
  /**
   * Whether `start` can hand the handler `stores` or `reportError` of the test's own. Only a
   * host that builds the handler in the test's process can; the suites that need it run there.
   */
  readonly injects: boolean;
  /**
   * Whether stopping the service leaves the event streams of named lists open. workerd has no
   * shutdown: stopping its service wipes the default list's object, whose streams then end,
   * and leaves every named list's object as it is.
   */
  readonly stopKeepsNamedStreams?: boolean;
  /** Whether the host holds at most `limits.maxLists` lists (Node, in-process; not workerd). */
  readonly boundsLists: boolean;
  /**
   * Whether list creations are counted in the clock's minutes (workerd's rate limit binding),
   * not in a minute from a client's first create (Node).
   */
  readonly countsByClockMinute?: boolean;
  /** Whether its services' tests run on a named list rather than the default one. */
  readonly onNamedList?: boolean;
  start(options?: ServiceOptions): Promise<TestService>;
}

/**
 * `fetch`, failing the test when an answer lacks `X-Request-Id`: every answer of the service
 * carries one, so a route that made its response some other way is caught by any test.
 */
export function withRequestIds(
  fetch: (path: string, init?: RequestInit) => Promise<Response>,
): TestService['fetch'] {
  return async (path, init) => {
    const response = await fetch(path, init);
    if (!response.headers.has('x-request-id')) {
      const method = init?.method ?? 'GET';
      throw new Error(`${method} ${path} was answered ${response.status} with no X-Request-Id.`);
    }
    return response;
  };
}

/** `fetch` straight into `app`, in this process, each answer with its request id checked. */
export function inProcessFetch(app: App): TestService['fetch'] {
  return withRequestIds((path, init) =>
    app.fetch(new Request(new URL(path, 'http://localhost'), init)),
  );
}

/** A bare store's settings: no changes kept for resuming clients, keys kept as by default. */
export const BARE_STORE_OPTIONS = {
  keepChanges: 0,
  keys: {
    windowMs: DEFAULT_APP_CONFIG.limits.idempotencyKeyHours * 3_600_000,
    most: DEFAULT_APP_CONFIG.limits.maxItems,
  },
};

/**
 * What each client may do in the test hosts, unless a test says otherwise: the suites make
 * many lists and open many streams from 127.0.0.1, far past the defaults.
 */
export const TEST_CLIENT_LIMITS = { listsPerMinute: 100_000, maxClientsPerAddress: 10_000 };

export function appConfig(options: ServiceOptions): AppConfig {
  const { listsPerMinute, maxClientsPerAddress } = TEST_CLIENT_LIMITS;
  return {
    limits: { ...DEFAULT_APP_CONFIG.limits, listsPerMinute, ...options.limits },
    sse: { ...DEFAULT_APP_CONFIG.sse, maxClientsPerAddress, ...options.sse },
  };
}

/** The header the in-process host takes a client's address from; 127.0.0.1 without it. */
const CLIENT_ADDRESS_HEADER = 'x-test-client-address';

/**
 * A fresh SQLite file for one service, and its lists kept in it in group commits, as the Node
 * host keeps them; the file goes with `close`.
 */
function sqliteStoresFor(): { stores: ListStores; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'todo-sqlite-'));
  const storage = openStorageAt(join(dir, 'todos.sqlite'));
  return {
    stores: storage.stores,
    async close() {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `host` with the lists kept in a SQLite file of its own for every service. */
export function withSqlite(host: TestHost): TestHost {
  return {
    ...host,
    name: `${host.name}, the lists kept in SQLite`,
    async start(options = {}) {
      if (options.stores) return host.start(options);
      const storage = sqliteStoresFor();
      const service = await host.start({ ...options, stores: storage.stores });
      return {
        ...service,
        async close() {
          await service.close();
          await storage.close();
        },
      };
    },
  };
}

/**
 * `host` with every service's tests on a named list, made for it as a client makes one: the
 * same rules hold at `/api/lists/{id}/todos` as at `/api/todos`.
 */
export function onNamedList(host: TestHost): TestHost {
  return {
    ...host,
    name: `${host.name}, on a named list`,
    onNamedList: true,
    async start(options = {}) {
      const service = await host.start(options);
      const response = await service.fetch(LISTS_PATH, { method: 'POST' });
      if (response.status !== 201) {
        await service.close();
        throw new Error(`POST ${LISTS_PATH} answered ${response.status}: ${await response.text()}`);
      }
      const { id } = (await response.json()) as { id: string };
      return {
        ...service,
        paths: namedListPaths(id),
        streamStats: () => service.streamStats(id),
        async close() {
          await service.stopList?.(id);
          await service.close();
        },
      };
    },
  };
}

/** How many named lists `app` holds. */
function namedListsOf(app: App): number {
  let count = 0;
  for (const list of app.lists.inMemory()) if (list.id !== '') count += 1;
  return count;
}

export const inProcessHost: TestHost = {
  name: 'in-process handler',
  injects: true,
  boundsLists: true,
  async start(options = {}) {
    const app = createApp({
      config: appConfig(options),
      lists: localLists({
        stores: options.stores,
        maxLists: options.maxLists ?? DEFAULT_MAX_LISTS,
      }),
      host: {
        assets: fileAssets(`${PROJECT_ROOT}public`),
        reportError: options.reportError ?? (() => {}),
        clientAddressOf: (request) => request.headers.get(CLIENT_ADDRESS_HEADER) ?? '127.0.0.1',
      },
    });
    const fetch = inProcessFetch(app);
    return {
      paths: DEFAULT_LIST_PATHS,
      fetch,
      fetchFrom: (address, path, init) => {
        const headers = new Headers(init?.headers);
        headers.set(CLIENT_ADDRESS_HEADER, address);
        return fetch(path, { ...init, headers });
      },
      streamStats: async () => streamStatsOf(app),
      countLists: async () => namedListsOf(app),
      close: async () => app.close(),
    };
  },
};

export const nodeHost: TestHost = {
  name: 'Node host over HTTP',
  injects: true,
  boundsLists: true,
  async start(options = {}) {
    const { limits, sse } = appConfig(options);
    const config = nodeConfig({
      limits: { ...limits, ...(options.maxLists && { maxLists: options.maxLists }) },
      sse,
      server: { shutdownTimeoutMs: 1000 },
    });
    const reporting = options.reportError
      ? recordingLogger('error', (line) => options.reportError!(line)).logger
      : SILENT;
    const running = await startNodeServer(config, reporting, options.stores);
    return {
      paths: DEFAULT_LIST_PATHS,
      fetch: withRequestIds((path, init) => fetch(new URL(path, running.url), init)),
      fetchFrom: (address, path, init) => fetchFrom(address, new URL(path, running.url), init),
      streamStats: async () => streamStatsOf(running.app),
      countLists: async () => namedListsOf(running.app),
      origin: running.url,
      close: () => running.close(),
    };
  },
};

/** A fresh service for every test of the enclosing `describe`, closed after it. */
export function useService(host: TestHost, options?: ServiceOptions): () => TestService {
  let service: TestService | undefined;
  beforeEach(async () => {
    service = await host.start(options);
  });
  afterEach(async () => {
    await service?.close();
  });
  return () => service!;
}
