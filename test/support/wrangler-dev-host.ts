import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_LIST_PATHS, type ListPaths } from '../../src/lists/list-paths.ts';
import { FORGET_REASON, TEST_PATHS } from '../workerd/test-paths.ts';
import {
  withRequestIds,
  type ServiceOptions,
  type StreamStats,
  type TestHost,
  type TestService,
} from './hosts.ts';
import { freePort } from './free-port.ts';
import { varsOf } from './worker-vars.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WRANGLER = join(PROJECT_ROOT, 'node_modules/.bin/wrangler');
/** The real worker and object, with the routes only a test may use (`TEST_PATHS`). */
const TEST_ENTRY = 'test/workerd/entry.ts';
/** What `npm run dev:edge` sets: no metrics, and no fetch of `Request.cf` from the network. */
const WRANGLER_ENV = { WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
/**
 * How long `wrangler dev` may take to bundle and start workerd on a busy machine, a start on new
 * ports after a taken one included.
 */
const START_TIMEOUT_MS = 50_000;
/** How long a stopping `wrangler dev` may take to stop its workerd before it is killed. */
const STOP_TIMEOUT_MS = 10_000;

/** What wrangler prints when a port it was given was taken before it could listen. */
const PORT_TAKEN = /Address already in use/;
/** How many sets of ports a start may try. */
const START_ATTEMPTS = 3;

/** Lines that mean the runtime failed a request, whatever the client was answered. */
const FAILURE_LINE =
  /Uncaught|worker restarted|Network connection lost|Can't read from request stream|\[ERROR\]/;

/** Every `wrangler dev` still running, stopped however the test process ends. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** The failures a test host reports, as one error that quotes wrangler's lines. */
export function loggedFailure(lines: readonly string[], when: string): Error {
  return new Error(`wrangler dev logged a failure ${when}:\n${lines.join('\n')}`);
}

/** What `TEST_PATHS.objectState` answers. */
export interface ObjectState {
  readonly instance: string;
  readonly requestsInFlight: number;
  readonly webSockets: number;
}

/** What the processes differ in: the `[vars]` and the environment wrangler runs with. */
interface WranglerDevSettings {
  readonly vars: Record<string, number | string>;
  readonly env: Record<string, string>;
}

/**
 * One `wrangler dev` with `vars` for the suite it is called in: started before its tests,
 * stopped after them.
 */
export function useWranglerDev(key: string, vars: WranglerDevSettings['vars'] = {}) {
  let dev: WranglerDev | undefined;
  beforeAll(async () => {
    dev = await WranglerDev.started(key, { vars, env: {} });
  });
  afterAll(() => dev?.stop());
  return (): WranglerDev => {
    if (dev === undefined) throw new Error(`wrangler dev "${key}" has not started.`);
    return dev;
  };
}

/** One `wrangler dev` process, started as `npm run dev:edge` starts it once the page is built. */
export class WranglerDev {
  /** Everything wrangler printed, colours removed. */
  output = '';
  private checkedTo = 0;
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'todo-wrangler-'));
  private readonly child: ChildProcess;
  private readonly exited: Promise<unknown>;
  origin = '';

  private constructor(
    readonly key: string,
    { vars, env }: WranglerDevSettings,
    port: number,
    inspectorPort: number,
  ) {
    const args = ['dev', TEST_ENTRY, '--ip', '127.0.0.1', '--port', String(port)];
    args.push('--inspector-port', String(inspectorPort), '--persist-to', this.stateDir);
    for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
    this.child = spawn(WRANGLER, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...WRANGLER_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(this.child);
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.once('error', (error) => (this.output += `\n[ERROR] ${error.message}\n`));
    const collect = (chunk: string) => (this.output += chunk.replace(/\x1b\[[0-9;]*m/g, ''));
    this.child.stdout!.setEncoding('utf8').on('data', collect);
    this.child.stderr!.setEncoding('utf8').on('data', collect);
  }

  /**
   * Starts one, on ports that were free a moment before. Another process (a `wrangler dev` of
   * a suite running beside this one, or its workerd) can take such a port first, so a start
   * that finds a port taken is tried again on new ones.
   */
  static async started(key: string, settings: WranglerDevSettings): Promise<WranglerDev> {
    // One deadline for every attempt, so a start fails within its test's hook timeout.
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (let attempt = 1; ; attempt++) {
      const dev = new WranglerDev(key, settings, await freePort(), await freePort());
      if (await dev.ready(deadline)) return dev;
      await dev.stop();
      if (!PORT_TAKEN.test(dev.output) || attempt === START_ATTEMPTS) {
        throw new Error(`wrangler dev did not start:\n${dev.output}`);
      }
    }
  }

  /**
   * Waits until wrangler says where it listens: false once it says a port is taken, or it
   * exits, or `deadline` passes.
   */
  private async ready(deadline: number): Promise<boolean> {
    for (;;) {
      const ready = this.output.match(/Ready on (http:\/\/\S+)/);
      if (ready) {
        this.origin = ready[1]!;
        return true;
      }
      if (PORT_TAKEN.test(this.output) || this.child.exitCode !== null || Date.now() > deadline) {
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.origin), init);
  }

  /** This process as the test service of one list: the default list's, or `paths`. */
  asService(paths: ListPaths = DEFAULT_LIST_PATHS): TestService {
    return {
      paths,
      fetch: withRequestIds((path, init) => this.fetch(path, init)),
      streamStats: () => this.streamStats(),
      countLists: () => this.objectsAddressed(),
      close: async () => {},
    };
  }

  /** The whole lines since the last call that show a failure, leaving out the test's abort. */
  newFailures(): string[] {
    const end = this.output.lastIndexOf('\n') + 1;
    const lines = this.output.slice(this.checkedTo, end).split('\n');
    this.checkedTo = Math.max(this.checkedTo, end);
    return lines.filter((line) => FAILURE_LINE.test(line) && !line.includes(FORGET_REASON));
  }

  /**
   * Drops the object of the list `listId` (the default list's without it) from memory and wipes
   * its storage: the next request meets an empty default list, or no named list.
   */
  forget(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.forget, listId);
  }

  /**
   * Drops the object of the list `listId` (the default list's without it) from memory, as an
   * eviction does, keeping what it stored.
   */
  evict(listId?: string): Promise<void> {
    return this.#testCall(TEST_PATHS.evict, listId);
  }

  /**
   * Puts the storage of the service from before there were named lists (`ONE_LIST`) in the
   * default list's object, and evicts it.
   */
  oneListSchema(): Promise<void> {
    return this.#testCall(TEST_PATHS.oneListSchema);
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

  /**
   * What keeps the object of the list `listId` (the default list's without it) in memory, and
   * which instance of it answered.
   */
  async objectState(listId?: string): Promise<ObjectState> {
    return (
      await this.fetch(withList(TEST_PATHS.objectState, listId))
    ).json() as Promise<ObjectState>;
  }

  /**
   * Waits until the object of the list `listId` (the default list's without it) has left
   * memory and been woken again: a new instance answers. The runtime lets an object with
   * nothing to do hibernate after about ten seconds, and each look is a request to it, so the
   * looks come further apart than that.
   */
  async leftMemory(listId?: string): Promise<void> {
    const { instance } = await this.objectState(listId);
    const deadline = Date.now() + 60_000;
    while ((await this.objectState(listId)).instance === instance) {
      if (Date.now() > deadline) throw new Error('The object stayed in memory for a minute.');
      await new Promise((resolve) => setTimeout(resolve, 12_000));
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

  /** Stops wrangler, which stops its workerd; kills it if it takes too long. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await this.exited;
      clearTimeout(timer);
    }
    running.delete(this.child);
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

function withList(path: string, listId: string | undefined): string {
  return listId === undefined ? path : `${path}?list=${encodeURIComponent(listId)}`;
}

/**
 * The `wrangler dev` processes the tests use, one for each set of settings a test asks for. A
 * service takes an idle one and drops the object from memory before and after use, so every
 * service meets a fresh, empty list. At most `MAX_IDLE` stay running between tests.
 */
class WranglerDevPool {
  private static readonly MAX_IDLE = 3;
  private readonly idle: WranglerDev[] = [];

  async take(settings: WranglerDevSettings): Promise<WranglerDev> {
    const key = JSON.stringify(settings);
    const same = this.idle.findIndex((dev) => dev.key === key);
    if (same === -1 && this.idle.length >= WranglerDevPool.MAX_IDLE) {
      await this.idle.shift()!.stop();
    }
    const dev =
      same === -1 ? await WranglerDev.started(key, settings) : this.idle.splice(same, 1)[0]!;
    await dev.forget();
    const earlier = dev.newFailures();
    if (earlier.length > 0) throw loggedFailure(earlier, 'before this test started');
    return dev;
  }

  async give(dev: WranglerDev): Promise<void> {
    await dev.forget();
    this.idle.push(dev);
  }

  /** Stops every idle process, and answers the failures they logged since the last check. */
  async stop(): Promise<string[]> {
    const failures = this.idle.flatMap((dev) => dev.newFailures());
    await Promise.all(this.idle.splice(0).map((dev) => dev.stop()));
    return failures;
  }
}

const pool = new WranglerDevPool();

/**
 * The worker and its Durable Object under `wrangler dev`: wrangler's own proxy in front of
 * workerd. A test fails if wrangler's output shows the runtime failing a request while the test
 * ran, whatever the client was answered.
 */
function wranglerDevHost(
  name: string,
  env: Record<string, string>,
  vars: Record<string, string> = {},
): TestHost {
  return {
    name,
    injects: false,
    boundsLists: false,
    stopKeepsNamedStreams: true,
    async start(options: ServiceOptions = {}) {
      if (
        options.stores !== undefined ||
        options.reportError !== undefined ||
        options.maxLists !== undefined
      ) {
        throw new Error(
          'The worker under wrangler dev builds its own stores, reports its own errors and ' +
            'holds any number of lists.',
        );
      }
      const dev = await pool.take({ vars: { ...vars, ...varsOf(options) }, env });
      let addressed = 0;
      await dev.objectsAddressed();
      return {
        paths: DEFAULT_LIST_PATHS,
        fetch: withRequestIds((path, init) => dev.fetch(path, init)),
        streamStats: (listId) => dev.streamStats(listId),
        stopList: (listId) => dev.forget(listId),
        countLists: async () => (addressed += await dev.objectsAddressed()),
        async close() {
          await pool.give(dev);
          const failures = dev.newFailures();
          if (failures.length > 0) throw loggedFailure(failures, 'while this test ran');
        },
      };
    },
  };
}

/** `wrangler dev` exactly as `npm run dev:edge` runs it: the default list kept in SQLite. */
export const wranglerDev = wranglerDevHost(
  'workerd: the worker and its Durable Object under wrangler dev',
  {},
);

/**
 * The same without the development-only middleware with which `wrangler dev` reads every
 * request body to its end: what the worker then does with a body is what it does deployed.
 */
export const wranglerDevAsDeployed = wranglerDevHost(
  'workerd under wrangler dev, without its development-only body draining',
  { WRANGLER_DISABLE_REQUEST_BODY_DRAINING: 'true' },
);

/** `wrangler dev` with the default list kept in its object's memory (`STORAGE = "memory"`). */
export const wranglerDevInMemory = wranglerDevHost(
  'workerd under wrangler dev, the default list kept in memory',
  {},
  { STORAGE: 'memory' },
);

/** Stops every `wrangler dev` process the tests started; fails on a failure logged late. */
export async function stopWranglerDev(): Promise<void> {
  const failures = await pool.stop();
  if (failures.length > 0) throw loggedFailure(failures, 'after the last test');
}
