// What @whatwg-node/server costs per request on node:http, against the same trivial JSON echo
// on bare node:http and on Fastify: `node bench/adapter-repro.mjs [seconds=2] [slices=8]`. It
// needs only the three packages (npm i @whatwg-node/server fastify autocannon) and Node 22.15+.
// Every server is up at once, pinned to core 1 when taskset exists; the load takes turns
// between them, and the figure is each one's CPU time per request against Fastify's in the
// same slice.
import { fork, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const BODY = JSON.stringify({ title: 'Water the plants', completed: false });
const ANSWER = JSON.stringify({
  id: '5f0c2a4e-8b1d-4c3e-9a7f-1d2e3f4a5b6c',
  title: 'Water the plants',
  completed: false,
});
const HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** The echo on the adapter, created with `options`. */
async function echoAdapter(options) {
  const { createServerAdapter, Response } = await import('@whatwg-node/server');
  return createServerAdapter(async (request) => {
    JSON.parse(await request.text());
    return new Response(ANSWER, { status: 201, headers: HEADERS });
  }, options);
}

/**
 * `listener` with each response's write(body) held and handed to its end(), to send both at
 * once.
 */
function withOneEnd(listener) {
  return (req, res) => {
    const { write, end } = res;
    let held;
    res.write = (chunk) => ((held = chunk), true);
    res.end = (...args) =>
      held === undefined ? end.apply(res, args) : ((res.write = write), end.call(res, held));
    return listener(req, res);
  };
}

/** The echo on bare node:http, its answer sent by `send(res)`. */
function bareEcho(send) {
  return createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(201, { ...HEADERS, 'content-length': Buffer.byteLength(ANSWER) });
      send(res);
    });
  });
}

/** Each server reads the JSON body of POST /echo, parses it, and answers 201 with a JSON item. */
const SERVERS = {
  async bare() {
    return bareEcho((res) => res.end(ANSWER));
  },
  // The bare server again, sending the body as the adapter does: write(), then end().
  async 'bare, write + end'() {
    return bareEcho((res) => (res.write(ANSWER), res.end()));
  },
  async fastify() {
    const { default: Fastify } = await import('fastify');
    const app = Fastify();
    app.post('/echo', async (request, reply) => {
      void request.body;
      return reply.code(201).headers(HEADERS).send(ANSWER);
    });
    await app.ready();
    return app.server;
  },
  async adapter() {
    return createServer(await echoAdapter());
  },
  // The adapter as it would be if sendNodeResponse sent a body of known length with one
  // end(body), as Fastify does, instead of write(body) and then end(): a shim holds the write
  // and hands it to end. Node corks the socket on write() and sends on the next tick (writev);
  // end(body) writes at once.
  async 'adapter, end(body)'() {
    return createServer(withOneEnd(await echoAdapter()));
  },
  // The adapter with Node's own AbortController for each request's signal, in place of its
  // lazy stand-in (an EventTarget subclass behind a Proxy): its option __useCustomAbortCtrl.
  async 'adapter, native signal'() {
    return createServer(await echoAdapter({ __useCustomAbortCtrl: false }));
  },
  // Both: Node's own signal, and one end(body).
  async 'adapter, native, end(body)'() {
    return createServer(withOneEnd(await echoAdapter({ __useCustomAbortCtrl: false })));
  },
  // The same, reading the body as the handler of this project does when Node frames it.
  async 'adapter, arrayBuffer'() {
    const { createServerAdapter, Response } = await import('@whatwg-node/server');
    const decoder = new TextDecoder();
    const adapter = createServerAdapter(async (request) => {
      JSON.parse(decoder.decode(await request.arrayBuffer()));
      return new Response(ANSWER, { status: 201, headers: HEADERS });
    });
    return createServer(adapter);
  },
};

if (process.argv[2] === '--serve') {
  const server = await SERVERS[process.argv[3]]();
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send({ cpuMs: (user + system) / 1000 });
  });
  process.once('disconnect', () => process.exit(0));
} else {
  const { default: autocannon } = await import('autocannon');
  const seconds = Number(process.argv[2] ?? 2);
  const slices = Number(process.argv[3] ?? 8);
  const pinned = spawnSync('taskset', ['-c', '1', 'true']).status === 0;
  const script = fileURLToPath(import.meta.url);
  const ask = (child) => new Promise((resolve) => child.once('message', resolve));

  const start = async (name) => {
    const child = pinned
      ? fork(script, ['--serve', name], {
          execPath: 'taskset',
          execArgv: ['-c', '1', process.execPath],
        })
      : fork(script, ['--serve', name]);
    const { port } = await ask(child);
    const cpuMs = async () => {
      child.send('cpu');
      return (await ask(child)).cpuMs;
    };
    return { name, child, port, cpuMs, runs: [] };
  };
  const load = (server, duration) =>
    autocannon({
      url: `http://127.0.0.1:${server.port}/echo`,
      connections: 50,
      duration,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    });

  const servers = [];
  for (const name of Object.keys(SERVERS)) servers.push(await start(name));
  for (const server of servers) await load(server, 1); // warm-up
  for (let slice = 0; slice < slices; slice += 1) {
    for (const server of slice % 2 === 0 ? servers : [...servers].reverse()) {
      const before = await server.cpuMs();
      const result = await load(server, seconds);
      const after = await server.cpuMs();
      if (result.non2xx || result.errors) throw new Error(`${server.name} answered badly`);
      server.runs[slice] = {
        rps: result.requests.average,
        cpuUs: ((after - before) * 1000) / result.requests.total,
      };
    }
  }
  for (const server of servers) server.child.disconnect();

  const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const fastify = servers.find((server) => server.name === 'fastify');
  console.log(
    `Node ${process.version}, ${slices} slices of ${seconds} s, servers ${pinned ? 'on core 1' : 'unpinned'}`,
  );
  console.log('server                        req/s   CPU µs/request   Fastify CPU / this');
  for (const server of servers) {
    const cpuUs = median(server.runs.map((run) => run.cpuUs));
    const rps = median(server.runs.map((run) => run.rps));
    const ratio = median(server.runs.map((run, slice) => fastify.runs[slice].cpuUs / run.cpuUs));
    console.log(
      `${server.name.padEnd(28)} ${String(Math.round(rps)).padStart(6)}   ${cpuUs.toFixed(1).padStart(14)}   ${ratio.toFixed(2).padStart(18)}`,
    );
  }
}
