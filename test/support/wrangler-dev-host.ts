import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORGET_REASON, TEST_PATHS } from '../workerd/test-paths.ts';
import type { ServiceOptions, StreamStats, TestHost } from './hosts.ts';
import { varsOf } from './worker-vars.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WRANGLER = join(PROJECT_ROOT, 'node_modules/.bin/wrangler');
/** The real worker and object, with the routes only a test may use (`TEST_PATHS`). */
const TEST_ENTRY = 'test/workerd/entry.ts';
/** How long `wrangler dev` may take to bundle and start workerd on a busy machine. */
const START_TIMEOUT_MS = 60_000;

/** Lines that mean the runtime failed a request, whatever the client was answered. */
const FAILURE_LINE =
  /Uncaught|worker restarted|Network connection lost|Can't read from request stream|\[ERROR\]/;

/** Asks the system for a port nobody listens on. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** One `wrangler dev` process, started as `npm run dev:edge` starts it once the page is built. */
class WranglerDev {
  private output = '';
  private checkedTo = 0;
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'todo-wrangler-'));
  private readonly child: ChildProcess;

  private constructor(
    readonly origin: string,
    readonly varsKey: string,
    vars: Record<string, number>,
    inspectorPort: number,
  ) {
    const { port } = new URL(origin);
    const args = ['dev', TEST_ENTRY, '--ip', '127.0.0.1', '--port', port];
    args.push('--inspector-port', String(inspectorPort), '--persist-to', this.stateDir);
    for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
    this.child = spawn(WRANGLER, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, so that stopping it stops the workerd it started too.
      detached: true,
    });
    const collect = (chunk: string) => (this.output += chunk.replace(/\x1b\[[0-9;]*m/g, ''));
    this.child.stdout!.setEncoding('utf8').on('data', collect);
    this.child.stderr!.setEncoding('utf8').on('data', collect);
  }

  static async started(vars: Record<string, number>): Promise<WranglerDev> {
    const origin = `http://127.0.0.1:${await freePort()}`;
    const dev = new WranglerDev(origin, JSON.stringify(vars), vars, await freePort());
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!/Ready on http/.test(dev.output)) {
      if (dev.child.exitCode !== null || Date.now() > deadline) {
        dev.stop();
        throw new Error(`wrangler dev did not start:\n${dev.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return dev;
  }

  fetch(path: string, init?: RequestInit): Promise<Response> {
    return fetch(new URL(path, this.origin), init);
  }

  /** The lines since the last call that show a failure, leaving out the test's own abort. */
  newFailures(): string[] {
    const lines = this.output.slice(this.checkedTo).split('\n');
    this.checkedTo = this.output.length;
    return lines.filter((line) => FAILURE_LINE.test(line) && !line.includes(FORGET_REASON));
  }

  /** Drops the object from memory, as an eviction does: the next request meets a new one. */
  async forget(): Promise<void> {
    const response = await this.fetch(TEST_PATHS.forget, { method: 'POST' });
    if (response.status !== 204) throw new Error(`forget answered ${response.status}`);
  }

  async streamStats(): Promise<StreamStats> {
    return (await this.fetch(TEST_PATHS.streamStats)).json() as Promise<StreamStats>;
  }

  stop(): void {
    if (this.child.exitCode === null) process.kill(-this.child.pid!, 'SIGKILL');
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

/**
 * The `wrangler dev` processes the tests use, one for each set of `[vars]` a test asks for,
 * kept until the end. A service takes an idle one and drops the object from memory before
 * and after use, so every service meets a fresh, empty list.
 */
class WranglerDevPool {
  private readonly idle: WranglerDev[] = [];
  private readonly all: WranglerDev[] = [];

  async take(vars: Record<string, number>): Promise<WranglerDev> {
    const key = JSON.stringify(vars);
    const same = this.idle.findIndex((dev) => dev.varsKey === key);
    let dev = same === -1 ? undefined : this.idle.splice(same, 1)[0]!;
    if (dev === undefined) {
      dev = await WranglerDev.started(vars);
      this.all.push(dev);
    }
    await dev.forget();
    return dev;
  }

  async give(dev: WranglerDev): Promise<void> {
    await dev.forget();
    this.idle.push(dev);
  }

  /** Stops every process, and answers the failures they logged since the last check. */
  stop(): string[] {
    const failures = this.all.flatMap((dev) => dev.newFailures());
    for (const dev of this.all) dev.stop();
    this.all.length = 0;
    this.idle.length = 0;
    return failures;
  }
}

const pool = new WranglerDevPool();

/**
 * The worker and its Durable Object under `wrangler dev`, the way users run the edge host:
 * wrangler's own proxy in front of workerd. A test fails if wrangler's output shows the runtime
 * failing a request while the test ran, whatever the client was answered.
 */
export const wranglerDevHost: TestHost = {
  name: 'workerd: the worker and its Durable Object under wrangler dev',
  injects: false,
  stopCutsStreams: true,
  async start(options: ServiceOptions = {}) {
    if (options.store !== undefined || options.reportError !== undefined) {
      throw new Error(
        'The worker under wrangler dev builds its own store and reports its own errors.',
      );
    }
    const dev = await pool.take(varsOf(options));
    return {
      fetch: (path, init) => dev.fetch(path, init),
      streamStats: () => dev.streamStats(),
      async close() {
        await pool.give(dev);
        const failures = dev.newFailures();
        if (failures.length > 0) {
          throw new Error(`wrangler dev logged a failure:\n${failures.join('\n')}`);
        }
      },
    };
  },
};

/** Stops every `wrangler dev` process the tests started; fails on a failure logged late. */
export function stopWranglerDev(): void {
  const failures = pool.stop();
  if (failures.length > 0) {
    throw new Error(`wrangler dev logged a failure:\n${failures.join('\n')}`);
  }
}
