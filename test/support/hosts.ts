import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createApp, type App } from '../../src/app.ts';
import { DEFAULT_APP_CONFIG, type AppConfig } from '../../src/config.ts';
import { fileAssets } from '../../src/hosts/node/file-assets.ts';
import { PROJECT_ROOT } from '../../src/hosts/node/project-root.ts';
import { startNodeServer } from '../../src/hosts/node/server.ts';
import { openSqliteFile } from '../../src/hosts/node/sqlite-file.ts';
import { openSqliteTodoStore } from '../../src/todos/sqlite-store.ts';
import type { TodoStore } from '../../src/todos/store.ts';
import { recordingLogger } from './log-lines.ts';
import { nodeConfig, SILENT } from './node-server.ts';

/** A running service that tests talk to through `fetch`, whatever hosts it. */
export interface TestService {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** What the service still holds for event clients: all zero once every client has left. */
  streamStats(): Promise<StreamStats>;
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
  sse?: Partial<AppConfig['sse']>;
  store?: TodoStore;
  /** Sees every unexpected error the service reports. */
  reportError?: (error: unknown) => void;
}

/** One way of hosting the handler; the conformance suite runs once per host. */
export interface TestHost {
  readonly name: string;
  /**
   * Whether `start` can hand the handler a `store` or `reportError` of the test's own. Only a
   * host that builds the handler in the test's process can; the suites that need it run there.
   */
  readonly injects: boolean;
  /**
   * Whether stopping the service cuts its open event streams instead of ending them. workerd
   * has no shutdown: a service stops when its object is evicted, and wrangler's proxy then drops
   * the client's connection.
   */
  readonly stopCutsStreams?: boolean;
  start(options?: ServiceOptions): Promise<TestService>;
}

export function appConfig(options: ServiceOptions): AppConfig {
  return {
    limits: { ...DEFAULT_APP_CONFIG.limits, ...options.limits },
    sse: { ...DEFAULT_APP_CONFIG.sse, ...options.sse },
  };
}

/**
 * A fresh SQLite file for one service, and the store kept in it; the file goes with `close`.
 * A service given a store of the test's own uses that instead.
 */
export function sqliteStoreFor(options: ServiceOptions): { store: TodoStore; close(): void } {
  if (options.store) return { store: options.store, close: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'todo-sqlite-'));
  const database = openSqliteFile(join(dir, 'todos.sqlite'));
  const store = openSqliteTodoStore(database, {
    keepChanges: appConfig(options).sse.replayEvents,
  });
  return {
    store,
    close: () => {
      database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `host` with the list kept in a SQLite file of its own for every service. */
export function withSqlite(host: TestHost): TestHost {
  return {
    ...host,
    name: `${host.name}, the list kept in SQLite`,
    async start(options = {}) {
      const storage = sqliteStoreFor(options);
      const service = await host.start({ ...options, store: storage.store });
      return {
        ...service,
        async close() {
          await service.close();
          storage.close();
        },
      };
    },
  };
}

export const inProcessHost: TestHost = {
  name: 'in-process handler',
  injects: true,
  async start(options = {}) {
    const app = createApp({
      config: appConfig(options),
      store: options.store,
      host: {
        assets: fileAssets(`${PROJECT_ROOT}public`),
        reportError: options.reportError ?? (() => {}),
      },
    });
    return {
      fetch: (path, init) => app.fetch(new Request(new URL(path, 'http://localhost'), init)),
      streamStats: async () => streamStatsOf(app),
      close: async () => app.close(),
    };
  },
};

export const nodeHost: TestHost = {
  name: 'Node host over HTTP',
  injects: true,
  async start(options = {}) {
    const config = nodeConfig({
      limits: options.limits,
      sse: options.sse,
      server: { shutdownTimeoutMs: 1000 },
    });
    const reporting = options.reportError
      ? recordingLogger('error', (line) => options.reportError!(line)).logger
      : SILENT;
    const running = await startNodeServer(config, reporting, options.store);
    return {
      fetch: (path, init) => fetch(new URL(path, running.url), init),
      streamStats: async () => streamStatsOf(running.app),
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
