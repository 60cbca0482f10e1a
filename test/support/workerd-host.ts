import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { afterAll, beforeAll } from 'vitest';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { PROJECT_ROOT } from '../../src/hosts/node/file-assets.ts';
import { DEFAULT_LIST_PATHS, type ListPaths } from '../../src/model/resources.ts';
import { FORGET_REASON, TEST_PATHS } from '../workerd/test-paths.ts';
import { WORKER_BUNDLE } from './build.ts';
import { fetchFrom } from './bound-fetch.ts';
import { freePort } from './free-port.ts';
import {
  TEST_CLIENT_LIMITS,
  withRequestIds,
  type ServiceOptions,
  type StreamStats,
  type TestHost,
  type TestService,
} from './hosts.ts';
import { varsOf } from './worker-vars.ts';

/** What `npm run dev:edge` sets: no metrics, and no fetch of `Request.cf` from the network. */
const WRANGLER_ENV = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
/** The secret view ids are derived under, as `wrangler secret put VIEW_KEY` sets it. */
const TEST_VIEW_KEY = 'a view key for tests, 32 characters or more';

/** Lines that mean the runtime failed a request, whatever the client was answered. */
const FAILURE_LINE =
  /Uncaught|worker restarted|Network connection lost|Can't read from request stream|\[ERROR\]/;

/** What `TEST_PATHS.objectState` answers. */
export interface ObjectState {
  readonly instance: string;
  readonly requestsInFlight: number;
  readonly webSockets: number;
}

/** The `[vars]` of the per-client limits every runtime a test starts has unless it says. */
const TEST_VARS = {
  LIMITS_LISTS_PER_MINUTE: TEST_CLIENT_LIMITS.listsPerMinute,
  SSE_MAX_CLIENTS_PER_ADDRESS: TEST_CLIENT_LIMITS.maxClientsPerAddress,
};

/** What the runtimes differ in: the `[vars]`, and the environment `wrangler dev` runs with. */
interface Settings {
  readonly vars: Record<string, number | string>;
  readonly env?: Record<string, string>;
}

/** The failures a runtime logged, as one error that quotes its lines. */
function loggedFailure(lines: readonly string[], when: string): Error {
  return new Error(`workerd logged a failure ${when}:\n${lines.join('\n')}`);
}

/**
 * The worker and its Durable Objects on workerd, serving the test entry (test/workerd/entry.ts:
 * the real worker and object, with the routes only a test may use, `TEST_PATHS`), and what it
 * logs. Started either through Miniflare's API in this process, the fast way the suites use,
 * or as the real CLI, `wrangler dev`, with its proxy and development middleware in front.
 */
export class Workerd {
  /** Everything the runtime logged, colours removed. */
  output = '';
  #checkedTo = 0;

  private constructor(
    readonly key: string,
    readonly origin: string,
    readonly stop: () => Promise<void>,
  ) {}

  /**
   * workerd through Miniflare, with `wrangler.toml` read as `wrangler dev` reads it, each client
   * allowed what the test hosts allow unless `vars` say otherwise; the rate limit binding
   * counts the `LIMITS_LISTS_PER_MINUTE` in force.
   */
  static async miniflare(key: string, settings: Settings): Promise<Workerd> {
    const vars = { ...TEST_VARS, ...settings.vars };
    const { workerOptions } = unstable_getMiniflareWorkerOptions(
      join(PROJECT_ROOT, 'wrangler.toml'),
    );
    const { LIST_CREATIONS: listCreations } = workerOptions.ratelimits as Record<
      string,
      { namespace_id: string }
    >;
    const limit = Number(vars.LIMITS_LISTS_PER_MINUTE);
    // The bundle is one module: there are no rules for others to follow.
    const { modulesRules: _bundled, ...worker } = workerOptions;
    let log = (_line: string) => {};
    // Miniflare 5 takes its own options; wrangler reads `wrangler.toml` into those of 4.
    const options = convertV4MiniflareOptions({
      ...worker,
      modules: true,
      modulesRoot: WORKER_BUNDLE,
      scriptPath: join(WORKER_BUNDLE, 'entry.js'),
      bindings: { ...(workerOptions.bindings as object), VIEW_KEY: TEST_VIEW_KEY, ...vars },
      ratelimits: { LIST_CREATIONS: { ...listCreations, simple: { limit, period: 60 } } },
      handleStructuredLogs: ({ level, message }: { level: string; message: string }) =>
        log(`[${level.toUpperCase()}] ${message}\n`),
    } as Parameters<typeof convertV4MiniflareOptions>[0]);
    const miniflare = new Miniflare(options);
    const origin = (await miniflare.ready).origin;
    const workerd = new Workerd(key, origin, () => miniflare.dispose());
    log = (line) => (workerd.output += line);
    return workerd;
  }

  /**
   * The real CLI, as `npm run dev:edge` starts it once the page is built, on ports that were
   * free a moment before, with `wrangler.toml`'s `[env.test]`: its rate limit binding lets
   * each client make as many lists as the test hosts allow, and cannot be set per run. Another
   * process can take such a port first, so a start that finds a port taken is tried again on
   * new ones.
   */
  static async wranglerDev(key: string, { vars, env }: Settings): Promise<Workerd> {
    if (vars.LIMITS_LISTS_PER_MINUTE !== undefined) {
      throw new Error('Under wrangler dev, [env.test] in wrangler.toml sets the list rate limit.');
    }
    for (let attempt = 1; ; attempt++) {
      const [port, inspectorPort] = [await freePort(), await freePort()];
      const stateDir = mkdtempSync(join(tmpdir(), 'todo-wrangler-'));
      const args = ['dev', 'test/workerd/entry.ts', '--env', 'test', '--ip', '127.0.0.1'];
      args.push('--port', `${port}`);
      args.push('--inspector-port', `${inspectorPort}`, '--persist-to', stateDir);
      for (const [name, value] of Object.entries({ VIEW_KEY: TEST_VIEW_KEY, ...vars })) {
        args.push('--var', `${name}:${value}`);
      }
      const child = spawn(join(PROJECT_ROOT, 'node_modules/.bin/wrangler'), args, {
        cwd: PROJECT_ROOT,
        env: { ...process.env, ...WRANGLER_ENV, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(stateDir, { recursive: true, force: true });
      };
      let output = '';
      const collect = (chunk: string) => (output += chunk.replace(/\x1b\[[0-9;]*m/g, ''));
      child.stdout.setEncoding('utf8').on('data', collect);
      child.stderr.setEncoding('utf8').on('data', collect);
      child.once('error', (error) => collect(`\n[ERROR] ${error.message}\n`));
      const deadline = Date.now() + 50_000;
      while (!/Ready on http/.test(output) && child.exitCode === null && Date.now() < deadline) {
        if (/Address already in use/.test(output)) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const ready = /Ready on (http:\/\/\S+)/.exec(output);
      if (ready) {
        const workerd = new Workerd(key, ready[1]!, stop);
        workerd.output = output;
        child.stdout.on('data', (chunk: string) => (workerd.output += chunk));
        child.stderr.on('data', (chunk: string) => (workerd.output += chunk));
        return workerd;
      }
      await stop();
      if (!/Address already in use/.test(output) || attempt === 3) {
        throw new Error(`wrangler dev did not start:\n${output}`);
      }
    }
  }

  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.origin), init);
  }

  /** `fetch` from the local address `address`, which the runtime gives as `CF-Connecting-IP`. */
  fetchFrom(address: string, path: string, init?: RequestInit): Promise<Response> {
    return fetchFrom(address, new URL(path, this.origin), init);
  }

  /** The runtime as the test service of one list: the default list's, or `paths`. */
  asService(paths: ListPaths = DEFAULT_LIST_PATHS): TestService {
    return {
      paths,
      fetch: withRequestIds((path, init) => this.fetch(path, init)),
      fetchFrom: (address, path, init) => this.fetchFrom(address, path, init),
      streamStats: () => this.streamStats(),
      countLists: () => this.objectsAddressed(),
      close: async () => {},
    };
  }

  /** The whole lines since the last call that show a failure, leaving out the test's abort. */
  newFailures(): string[] {
    const end = this.output.lastIndexOf('\n') + 1;
    const lines = this.output.slice(this.#checkedTo, end).split('\n');
    this.#checkedTo = Math.max(this.#checkedTo, end);
    return lines.filter((line) => FAILURE_LINE.test(line) && !line.includes(FORGET_REASON));
  }

  /**
   * Drops the object of the list `listId` (the default list's without it) from memory and wipes
   * its storage: the next request meets an empty default list, or no named list.
   */
  forget(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.forget, listId);
  }

  /** Drops the object of the list `listId` from memory, as an eviction does, keeping its storage. */
  evict(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.evict, listId);
  }

  /**
   * Puts tables of a format from before formats were numbered in the object of the list
   * `listId`, or the default list's.
   */
  olderFormat(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.olderFormat, listId);
  }

  /** Turns the storage of the list `listId`, or the default list's, back into format 1. */
  formatOne(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.formatOne, listId);
  }

  /** Resets the object of `listId`, as a crash does, right after its next write is durable. */
  crashAfterNextWrite(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.crashAfterNextWrite, listId);
  }

  /** Holds each list creation the worker counts from now on, until `releaseListCreations`. */
  holdListCreations(): Promise<void> {
    return this.#testCall(TEST_PATHS.holdListCreations);
  }

  releaseListCreations(): Promise<void> {
    return this.#testCall(TEST_PATHS.releaseListCreations);
  }

  /** Resolves once a list creation waits to be counted. */
  async listCreationWaits(): Promise<void> {
    for (;;) {
      const waiting = await this.fetch(TEST_PATHS.listCreationsWaiting);
      if ((await waiting.json()) !== 0) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async #testCall(path: string, listId?: string): Promise<void> {
    const response = await this.fetch(withList(path, listId), { method: 'POST' });
    if (response.status !== 204) {
      throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    }
  }

  /** The stream stats of the list `listId`'s object, or the default list's. */
  async streamStats(listId?: string): Promise<StreamStats> {
    return (
      await this.fetch(withList(TEST_PATHS.streamStats, listId))
    ).json() as Promise<StreamStats>;
  }

  /** What keeps the object of the list `listId` in memory, and which instance answered. */
  async objectState(listId?: string): Promise<ObjectState> {
    return (
      await this.fetch(withList(TEST_PATHS.objectState, listId))
    ).json() as Promise<ObjectState>;
  }

  /**
   * Waits until the objects of the lists `listIds` (the default list's for `undefined`) have
   * left memory and been woken again: a new instance answers. The runtime lets an object with
   * nothing to do hibernate after about ten seconds, and each look is a request to it, so the
   * looks come further apart than that.
   */
  async leftMemory(...listIds: (string | undefined)[]): Promise<void> {
    const ids = listIds.length === 0 ? [undefined] : listIds;
    const instances = () =>
      Promise.all(ids.map(async (id) => (await this.objectState(id)).instance));
    const before = await instances();
    const deadline = Date.now() + 60_000;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      const now = await instances();
      if (now.every((instance, at) => instance !== before[at])) return;
      if (Date.now() > deadline) throw new Error('An object stayed in memory for a minute.');
    }
  }

  /** The id of the object that holds the list `listId`, as that object gives it. */
  async objectId(listId: string): Promise<string> {
    return (await this.fetch(withList(TEST_PATHS.objectId, listId))).json() as Promise<string>;
  }

  /** How many times the worker has addressed an object since the last call. */
  async objectsAddressed(): Promise<number> {
    return (await this.fetch(TEST_PATHS.objectsAddressed)).json() as Promise<number>;
  }
}

function withList(path: string, listId: string | undefined): string {
  return listId === undefined ? path : `${path}?list=${encodeURIComponent(listId)}`;
}

type Start = (key: string, settings: Settings) => Promise<Workerd>;

/**
 * One runtime with `vars`, for the suite it is called in: started before its tests, stopped
 * after them; Miniflare's unless `start` says otherwise.
 */
export function useWorkerd(
  key: string,
  vars: Settings['vars'] = {},
  start: Start = Workerd.miniflare,
) {
  let runtime: Workerd | undefined;
  beforeAll(async () => {
    runtime = await start(key, { vars });
  });
  afterAll(() => runtime?.stop());
  return (): Workerd => {
    if (runtime === undefined) throw new Error(`workerd "${key}" has not started.`);
    return runtime;
  };
}

/**
 * The runtimes the test hosts use, one for each set of settings a test asks for. A service
 * takes an idle one and drops the object from memory before and after use, so every service
 * meets a fresh, empty list. At most `MAX_IDLE` stay running between tests.
 */
class RuntimePool {
  private static readonly MAX_IDLE = 3;
  private readonly idle: Workerd[] = [];

  async take(start: Start, settings: Settings): Promise<Workerd> {
    const key = `${start.name} ${JSON.stringify(settings)}`;
    const same = this.idle.findIndex((runtime) => runtime.key === key);
    if (same === -1 && this.idle.length >= RuntimePool.MAX_IDLE) await this.idle.shift()!.stop();
    const runtime = same === -1 ? await start(key, settings) : this.idle.splice(same, 1)[0]!;
    await runtime.forget();
    const earlier = runtime.newFailures();
    if (earlier.length > 0) throw loggedFailure(earlier, 'before this test started');
    return runtime;
  }

  async give(runtime: Workerd): Promise<void> {
    await runtime.forget();
    this.idle.push(runtime);
  }

  /** Stops every idle runtime, and answers the failures they logged since the last check. */
  async stop(): Promise<string[]> {
    const failures = this.idle.flatMap((runtime) => runtime.newFailures());
    await Promise.all(this.idle.splice(0).map((runtime) => runtime.stop()));
    return failures;
  }
}

const pool = new RuntimePool();

/**
 * The worker and its Durable Objects on workerd as a test host. A test fails if the runtime's
 * log shows it failing a request while the test ran, whatever the client was answered.
 */
function workerdHost(name: string, start: Start, settings: Settings): TestHost {
  return {
    name,
    injects: false,
    boundsLists: false,
    countsByClockMinute: true,
    stopKeepsNamedStreams: true,
    async start(options: ServiceOptions = {}) {
      if (options.stores || options.reportError || options.maxLists !== undefined) {
        throw new Error(
          'The worker builds its own stores, reports its own errors and holds any number of lists.',
        );
      }
      const runtime = await pool.take(start, {
        ...settings,
        vars: { ...settings.vars, ...varsOf(options) },
      });
      let addressed = 0;
      await runtime.objectsAddressed();
      return {
        paths: DEFAULT_LIST_PATHS,
        fetch: withRequestIds((path, init) => runtime.fetch(path, init)),
        fetchFrom: (address, path, init) => runtime.fetchFrom(address, path, init),
        streamStats: (listId) => runtime.streamStats(listId),
        stopList: (listId) => runtime.forget(listId),
        countLists: async () => (addressed += await runtime.objectsAddressed()),
        origin: runtime.origin,
        newFailures: () => runtime.newFailures(),
        async close() {
          await pool.give(runtime);
          const failures = runtime.newFailures();
          if (failures.length > 0) throw loggedFailure(failures, 'while this test ran');
        },
      };
    },
  };
}

/** workerd as deployed: the worker, its objects, the default list kept in SQLite. */
export const workerd = workerdHost('workerd (Miniflare)', Workerd.miniflare, { vars: {} });

/** The same with the default list kept in its object's memory (`STORAGE = "memory"`). */
export const workerdInMemory = workerdHost(
  'workerd (Miniflare), the default list kept in memory',
  Workerd.miniflare,
  { vars: { STORAGE: 'memory' } },
);

/**
 * `wrangler dev` exactly as `npm run dev:edge` runs it, with the development-only middleware
 * that reads every request body to its end before the answer goes out.
 */
export const wranglerDev = workerdHost('workerd under wrangler dev', Workerd.wranglerDev, {
  vars: {},
});

/** Stops every runtime the hosts started; fails on a failure logged late. */
export async function stopWorkerd(): Promise<void> {
  const failures = await pool.stop();
  if (failures.length > 0) throw loggedFailure(failures, 'after the last test');
}
