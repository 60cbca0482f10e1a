import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, type SourcelessWorkerOptions } from 'wrangler';
import { PROJECT_ROOT } from '../../src/hosts/node/server.ts';
import { varNameOf } from '../../src/hosts/workerd/vars-config.ts';
import type { ServiceOptions, StreamStats, TestHost } from './hosts.ts';

/** The bundle's entry: the real worker, its object extended with test-only methods. */
const TEST_ENTRY = 'test/workerd/entry.ts';
const TEST_OBJECT_CLASS = 'TestTodoListObject';
/** The name `src/hosts/workerd/worker.ts` gives the one object. */
const LIST_NAME = 'todos';
/** The reason `forget()` aborts the object with; workerd logs it, and it is expected. */
const FORGET_REASON = 'forgotten by the test host';

const WRANGLER_ENV = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_LOG: 'error',
};

/** `test/workerd/entry.ts`'s object, as its stub shows it. */
interface TestTodoListObject {
  forget(): Promise<void>;
  streamStats(): Promise<StreamStats>;
}

/** `wrangler.toml` as Miniflare options, the way `wrangler dev` reads it. */
export function wranglerTomlOptions(): SourcelessWorkerOptions {
  Object.assign(process.env, WRANGLER_ENV);
  return unstable_getMiniflareWorkerOptions(join(PROJECT_ROOT, 'wrangler.toml')).workerOptions;
}

/** Bundles the test entry as `wrangler deploy` would, and reads `wrangler.toml` as it does. */
function bundledWorker(bundleDir: string): MiniflareOptions {
  execFileSync(
    join(PROJECT_ROOT, 'node_modules/.bin/wrangler'),
    ['deploy', TEST_ENTRY, '--dry-run', '--outdir', bundleDir],
    { cwd: PROJECT_ROOT, env: { ...process.env, ...WRANGLER_ENV }, stdio: 'pipe' },
  );
  return {
    ...wranglerTomlOptions(),
    modules: true,
    modulesRoot: bundleDir,
    scriptPath: join(bundleDir, 'entry.js'),
    durableObjects: { TODO_LIST: { className: TEST_OBJECT_CLASS, useSQLite: true } },
    handleStructuredLogs: ({ level, message }: { level: string; message: string }) => {
      if (!message.includes(FORGET_REASON)) console.error(`[workerd ${level}] ${message}`);
    },
  } as MiniflareOptions;
}

/** One workerd process running the worker, its object and `public/` as static assets. */
class Runtime {
  private varsKey = '';
  private constructor(private readonly miniflare: Miniflare) {}

  static async started(options: MiniflareOptions, varsKey: string): Promise<Runtime> {
    const runtime = new Runtime(new Miniflare(options));
    runtime.varsKey = varsKey;
    await runtime.miniflare.ready;
    return runtime;
  }

  matches(varsKey: string): boolean {
    return varsKey === this.varsKey;
  }

  async reconfigure(options: MiniflareOptions, varsKey: string): Promise<void> {
    await this.miniflare.setOptions(options);
    this.varsKey = varsKey;
  }

  get url(): Promise<URL> {
    return this.miniflare.ready;
  }

  /** The one object, through a stub only the test holds. */
  private async object(): Promise<TestTodoListObject> {
    const namespace = await this.miniflare.getDurableObjectNamespace('TODO_LIST');
    return namespace.get(namespace.idFromName(LIST_NAME)) as unknown as TestTodoListObject;
  }

  /** Drops the object from memory, as an eviction does: the next request meets a new one. */
  async forget(): Promise<void> {
    // The call fails by design: the object it runs in is aborted.
    await (await this.object()).forget().catch(() => {});
  }

  async streamStats(): Promise<StreamStats> {
    return (await this.object()).streamStats();
  }

  dispose(): Promise<void> {
    return this.miniflare.dispose();
  }
}

/**
 * Keeps the workerd processes the tests use. A service takes an idle one, restarting it only
 * when the test asks for other `[vars]`, and drops the object from memory before and after
 * use, so every service meets a fresh, empty list; two services open at once get two
 * processes, as they would be two deployments. A start costs ~0.3 s, a fresh object ~15 ms.
 */
class RuntimePool {
  private readonly bundleDir = mkdtempSync(join(tmpdir(), 'todo-worker-'));
  private readonly worker = bundledWorker(this.bundleDir);
  private readonly idle: Runtime[] = [];
  private readonly all: Runtime[] = [];

  async take(vars: Record<string, number>): Promise<Runtime> {
    const key = JSON.stringify(vars);
    const options = {
      ...this.worker,
      bindings: { ...(this.worker.bindings as object), ...vars },
    } as MiniflareOptions;
    const same = this.idle.findIndex((runtime) => runtime.matches(key));
    let runtime = same === -1 ? this.idle.pop() : this.idle.splice(same, 1)[0]!;
    if (runtime === undefined) {
      runtime = await Runtime.started(options, key);
      this.all.push(runtime);
    } else if (!runtime.matches(key)) {
      await runtime.reconfigure(options, key);
    }
    await runtime.forget();
    return runtime;
  }

  async give(runtime: Runtime): Promise<void> {
    await runtime.forget();
    this.idle.push(runtime);
  }

  async dispose(): Promise<void> {
    await Promise.all(this.all.map((runtime) => runtime.dispose()));
    rmSync(this.bundleDir, { recursive: true, force: true });
  }
}

/** `limits` and `sse` as the `[vars]` that set them. */
function varsOf(options: ServiceOptions): Record<string, number> {
  const vars: Record<string, number> = {};
  for (const [group, values] of Object.entries({ limits: options.limits, sse: options.sse })) {
    for (const [key, value] of Object.entries(values ?? {})) vars[varNameOf(group, key)] = value;
  }
  return vars;
}

let pool: RuntimePool | undefined;
let bundleFailure: unknown;

/** The pool, bundling the worker on first use; a failed bundle fails every test at once. */
function runtimePool(): RuntimePool {
  if (bundleFailure !== undefined) throw bundleFailure;
  try {
    return (pool ??= new RuntimePool());
  } catch (error) {
    bundleFailure = error;
    throw error;
  }
}

/** The worker on workerd, driven over HTTP by Miniflare, as `wrangler dev` and Cloudflare run it. */
export const workerdHost: TestHost = {
  name: 'workerd: the worker and its Durable Object on Miniflare',
  injects: false,
  async start(options = {}) {
    if (options.store !== undefined || options.reportError !== undefined) {
      throw new Error('The worker on workerd builds its own store and reports its own errors.');
    }
    const runtimes = runtimePool();
    const runtime = await runtimes.take(varsOf(options));
    const url = await runtime.url;
    return {
      fetch: (path, init) => fetch(new URL(path, url), init),
      streamStats: () => runtime.streamStats(),
      close: () => runtimes.give(runtime),
    };
  },
};

/** Stops every workerd process and removes the bundle. */
export async function stopWorkerd(): Promise<void> {
  await pool?.dispose();
  pool = undefined;
}
