// Prints, as JSON, the files of src/ whose code runs while the service answers one POST of an
// item on a named list, once warm: on the Node host as built (dist/, the lists in memory), and
// on workerd as bundled for deployment (.wrangler/worker/worker.js, mapped back to src/ by its
// source map). V8 counts every function's calls (precise coverage); a file is passed when one
// of its functions ran. Plain Node runs this, not vitest, so that the code is the built code.
//
// The worker and its object run here on Node, with the few runtime bindings the POST touches
// stood in for: the objects' namespace, each object's SQLite storage (node:sqlite), the rate
// limit binding, and the `cloudflare:workers` module. What the bindings do is the runtime's; every file counted is
// the project's own.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { register, SourceMap } from 'node:module';
import { DatabaseSync } from 'node:sqlite';

const ROOT = new URL('../../', import.meta.url);
const BUNDLE = new URL('.wrangler/worker/worker.js', ROOT);

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (specifier !== 'cloudflare:workers') return next(specifier, context);
        const source = 'export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }';
        return { url: 'data:text/javascript,' + encodeURIComponent(source), shortCircuit: true };
      }`),
);

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

/** The functions that ran during `post()`, once `post` has run a few times to warm up. */
async function functionsRunBy(post) {
  for (let warm = 0; warm < 10; warm += 1) await post();
  await session.post('Profiler.takePreciseCoverage');
  await post();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result.map((script) => ({
    url: script.url,
    started: script.functions
      .filter((f) => f.ranges[0].count > 0)
      .map((f) => f.ranges[0].startOffset),
  }));
}

const json = (body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function onNode() {
  const dist = new URL('dist/', ROOT);
  const { startNodeServer } = await import(new URL('hosts/node/server.js', dist).href);
  const { DEFAULT_NODE_CONFIG } = await import(new URL('hosts/node/node-config.js', dist).href);
  const { createLogger } = await import(new URL('hosts/node/logger.js', dist).href);
  const config = { ...DEFAULT_NODE_CONFIG, host: '127.0.0.1', port: 0 };
  const logger = createLogger(DEFAULT_NODE_CONFIG.log, { write() {} });
  const running = await startNodeServer(config, logger);
  const list = await (await fetch(`${running.url}/api/lists`, { method: 'POST' })).json();
  const post = () =>
    fetch(`${running.url}/api/lists/${list.id}/todos`, json({ title: 'Buy milk' })).then((r) =>
      r.text(),
    );
  const scripts = await functionsRunBy(post);
  await running.close();
  const files = scripts
    .filter(({ url, started }) => url.startsWith(dist.href) && started.length > 0)
    .map(({ url }) => `src/${url.slice(dist.href.length).replace(/\.js$/, '.ts')}`);
  return [...new Set(files)].sort();
}

/** A Durable Object's state: its id, and SQLite storage of its own. */
function objectState(id) {
  const db = new DatabaseSync(':memory:');
  return {
    id,
    storage: {
      sql: {
        exec(sql, ...params) {
          const rows = db.prepare(sql).all(...params);
          return { toArray: () => rows };
        },
      },
      transactionSync(work) {
        db.exec('BEGIN');
        try {
          const result = work();
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
      deleteAll: async () => {},
    },
    blockConcurrencyWhile: (work) => work(),
    acceptWebSocket() {},
    getWebSockets: () => [],
  };
}

async function onWorkerd() {
  // workerd streams a request body without being asked to; Node's fetch wants `duplex`.
  globalThis.Request = class extends Request {
    constructor(input, init) {
      super(input, init?.body instanceof ReadableStream ? { ...init, duplex: 'half' } : init);
    }
  };
  const { default: worker, TodoListObject } = await import(BUNDLE.href);
  class Id {
    constructor(hex) {
      this.hex = hex;
    }
    toString() {
      return this.hex;
    }
    equals(other) {
      return other.hex === this.hex;
    }
  }
  const hex = (bytes) => Buffer.from(bytes).toString('hex');
  const objects = new Map();
  const env = {};
  const objectOf = (id) => {
    if (!objects.has(id.hex)) objects.set(id.hex, new TodoListObject(objectState(id), env));
    return objects.get(id.hex);
  };
  Object.assign(env, {
    TODO_LIST: {
      idFromName: (name) =>
        new Id(hex(new TextEncoder().encode(name.padEnd(32, '.')).slice(0, 32))),
      newUniqueId: () => new Id(hex(crypto.getRandomValues(new Uint8Array(32)))),
      idFromString(text) {
        if (!/^[0-9a-f]{64}$/.test(text)) throw new TypeError('Invalid Durable Object ID.');
        return new Id(text);
      },
      get: (id) => ({
        fetch: (request) => objectOf(id).fetch(request),
        create: (...args) => objectOf(id).create(...args),
      }),
    },
    ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
    VIEW_KEY: 'a view key of at least 32 characters',
    LIST_CREATIONS: { limit: async () => ({ success: true }) },
  });
  const origin = 'http://localhost';
  const made = await worker.fetch(new Request(`${origin}/api/lists`, { method: 'POST' }), env);
  const list = await made.json();
  const post = async () => {
    const request = new Request(
      `${origin}/api/lists/${list.id}/todos`,
      json({ title: 'Buy milk' }),
    );
    await (await worker.fetch(request, env)).text();
  };
  const scripts = await functionsRunBy(post);
  const bundle = readFileSync(BUNDLE, 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(new URL('worker.js.map', BUNDLE), 'utf8')));
  const lineStarts = [0];
  for (let at = bundle.indexOf('\n'); at !== -1; at = bundle.indexOf('\n', at + 1)) {
    lineStarts.push(at + 1);
  }
  const files = new Set();
  for (const offset of scripts.find(({ url }) => url === BUNDLE.href)?.started ?? []) {
    let line = lineStarts.findLastIndex((start) => start <= offset);
    const { originalSource } = map.findEntry(line, offset - lineStarts[line]);
    const source = originalSource?.replace(/^(\.\.\/)+/, '');
    if (source?.startsWith('src/')) files.add(source);
  }
  return [...files].sort();
}

process.stdout.write(JSON.stringify({ node: await onNode(), workerd: await onWorkerd() }));
session.disconnect();
