import { afterEach, describe, expect, it } from 'vitest';
import type { LogLine } from '../support/log-lines.ts';
import { freePort } from '../support/free-port.ts';
import { configDir, ServiceProcess } from '../support/service-process.ts';
import { createServer } from 'node:net';
import { request as httpRequest } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { DEFAULT_NODE_CONFIG, loadConfig } from '../../src/hosts/node/node-config.ts';

const started: ServiceProcess[] = [];
function start(args: string[] = [], env: Record<string, string> = {}): ServiceProcess {
  const service = new ServiceProcess(args, env);
  started.push(service);
  return service;
}
afterEach(() => started.splice(0).forEach((service) => service.stop()));

/** How many free ports a test that needs one tries, in case another process takes one first. */
const PORT_ATTEMPTS = 3;

describe('starting the service', () => {
  it('sets in config/prod.yaml the defaults a key left out takes', () => {
    expect(loadConfig('config/prod.yaml', {})).toEqual(DEFAULT_NODE_CONFIG);
  });

  it('starts the prod profile when given no argument', async () => {
    const service = start();
    await service.url();
    expect(JSON.parse(service.stdout.split('\n')[0]!)).toMatchObject({ profile: 'prod' });
  });

  it('serves the API once it says it is listening', async () => {
    const response = await fetch(`${await start().url()}/api/todos`);
    expect([response.status, await response.json()]).toEqual([200, []]);
  });

  it('writes nothing to stderr from start to stop, on every supported Node', async () => {
    const service = start();
    await service.url();
    service.child.kill('SIGTERM');
    await service.exited;
    expect(service.stderr).toBe('');
  });

  it('starts the dev profile when given dev', async () => {
    const service = start(['dev']);
    await service.url();
    expect(service.stdout).toMatch(/^\[[\d:.]+\] INFO: listening on http:\/\/127\.0\.0\.1:\d+$/m);
  });

  it('listens on the PORT and HOST of the environment over the file', async () => {
    // Another process may take the free port first: then the service says so, and a new one
    // is tried.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const service = start([], { PORT: String(port), HOST: '127.0.0.1' });
      const url = await service.url().catch((error: unknown) => {
        if (attempt < PORT_ATTEMPTS && service.stdout.includes('the port is in use')) return;
        throw error;
      });
      if (url === undefined) continue;
      expect(url).toBe(`http://127.0.0.1:${port}`);
      return;
    }
  });

  it('says so when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const service = start([], { PORT: String(port) });
    const { code } = await service.exited;
    taken.close();
    expect(code).toBe(1);
    expect(service.stdout).toContain(`cannot listen on 127.0.0.1:${port}: the port is in use`);
  });

  it('refuses an unknown argument, listing the profiles', async () => {
    const service = start(['staging']);
    expect((await service.exited).code).toBe(2);
    expect(service.stderr).toContain('"staging"');
    expect(service.stderr).toContain('dev, prod');
  });

  it('refuses more than one argument', async () => {
    const service = start(['dev', 'prod']);
    expect((await service.exited).code).toBe(2);
    expect(service.stderr).toContain('dev, prod');
  });
});

describe('configuration errors', () => {
  const failsWith = async (
    edit: string | ((shipped: string) => string),
    env: Record<string, string> = {},
  ) => {
    const dir = configDir(edit);
    const service = start([], { TODO_CONFIG_DIR: dir, ...env });
    const { code } = await service.exited;
    expect(code).toBe(1);
    expect(service.stdout).not.toContain('listening');
    return { stderr: service.stderr, file: `${dir}/prod.yaml` };
  };

  it('stops at an unknown key, naming the file and the key', async () => {
    const { stderr, file } = await failsWith((yaml) => yaml.replace('maxItems:', 'maxItem:'));
    expect(stderr).toContain(file);
    expect(stderr).toContain('"limits.maxItem"');
  });

  it('stops at a value of the wrong type, naming the key and what it must be', async () => {
    const { stderr, file } = await failsWith((yaml) => yaml.replace('port: 8080', 'port: eighty'));
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/"port" must be an integer from 0 to 65535; it is "eighty"/);
  });

  it('stops at a nested value of the wrong type', async () => {
    const { stderr } = await failsWith((yaml) => yaml.replace('format: json', 'format: xml'));
    expect(stderr).toContain('"log.format" must be one of pretty, json');
  });

  it('stops at a storage file that is not a path', async () => {
    const { stderr } = await failsWith((yaml) => yaml.replace(/file: null.*/, 'file: 5'));
    expect(stderr).toContain(
      '"storage.file" must be a file path, or null to keep the lists in memory only; it is 5.',
    );
  });

  it('stops at broken YAML, naming the file', async () => {
    const { stderr, file } = await failsWith('limits:\n  maxItems: [1, 2\n');
    expect(stderr).toContain(file);
    expect(stderr).toContain('not valid YAML');
  });

  it('stops when the profile file is missing, naming it', async () => {
    const dir = configDir('port: 1\n');
    const service = start(['dev'], { TODO_CONFIG_DIR: dir });
    expect((await service.exited).code).toBe(1);
    expect(service.stderr).toContain(`${dir}/dev.yaml: does not exist`);
  });

  it('stops at a timeout longer than a timer can hold', async () => {
    const { stderr } = await failsWith((yaml) =>
      yaml.replace('shutdownTimeoutMs: 10000', 'shutdownTimeoutMs: 3000000000'),
    );
    expect(stderr).toContain('"server.shutdownTimeoutMs" must be an integer from 0 to 2147483647');
  });

  it.each([
    [
      'listsPerMinute: 30',
      'listsPerMinute: 0',
      '"limits.listsPerMinute" must be an integer of at least 1; it is 0.',
    ],
    [
      'maxClientsPerAddress: 50',
      'maxClientsPerAddress: many',
      '"sse.maxClientsPerAddress" must be an integer of at least 1; it is "many".',
    ],
    [
      'clientAddressHeader: null',
      'clientAddressHeader: "X Forwarded"',
      '"server.clientAddressHeader" must be a header name',
    ],
  ])('stops at a bad per-client limit setting: %s', async (shipped, wrong, message) => {
    const { stderr } = await failsWith((yaml) => yaml.replace(shipped, wrong));
    expect(stderr).toContain(message);
  });

  it('shows an infinite number as YAML wrote it', async () => {
    const { stderr } = await failsWith((yaml) => yaml.replace('maxItems: 10000', 'maxItems: .inf'));
    expect(stderr).toContain('"limits.maxItems" must be an integer of at least 1; it is Infinity');
  });

  it('stops when the file is not a mapping', async () => {
    const { stderr } = await failsWith('- port\n- 8080\n');
    expect(stderr).toContain('must be a mapping');
  });

  it('stops at a headers timeout longer than the request timeout, naming both keys', async () => {
    const { stderr } = await failsWith((yaml) =>
      yaml.replace('headersTimeoutMs: 10000', 'headersTimeoutMs: 60000'),
    );
    expect(stderr).toContain('"server.headersTimeoutMs"');
    expect(stderr).toContain('"server.requestTimeoutMs"');
  });

  it('stops at a PORT that is not a port number, naming PORT', async () => {
    const { stderr } = await failsWith((yaml) => yaml, { PORT: '80a' });
    expect(stderr).toContain('PORT');
  });

  it('reports every problem of a file at once', async () => {
    const { stderr } = await failsWith((yaml) =>
      yaml.replace('port: 8080', 'port: -1').replace('maxItems:', 'items:'),
    );
    expect(stderr).toContain('"port"');
    expect(stderr).toContain('"limits.items"');
  });

  it('reports a headers timeout longer than the request timeout beside another problem', async () => {
    const { stderr } = await failsWith((yaml) =>
      yaml
        .replace('port: 8080', 'port: -1')
        .replace('headersTimeoutMs: 10000', 'headersTimeoutMs: 60000'),
    );
    expect(stderr).toContain('"port"');
    expect(stderr).toContain('"server.headersTimeoutMs" (60000) must not exceed');
  });

  it.each([
    ['requestTimeoutMs', 'server:\n  headersTimeoutMs: 60000\n  requestTimeoutMs: -5\n'],
    ['headersTimeoutMs', 'server:\n  headersTimeoutMs: -5\n  requestTimeoutMs: 5000\n'],
  ])(
    'does not compare a refused %s, which the file does not hold, with the other',
    async (refused, yaml) => {
      const { stderr } = await failsWith(yaml);
      expect(stderr).toContain(`"server.${refused}" must be`);
      expect(stderr).not.toContain('must not exceed');
    },
  );
});

/** The lines the service has logged so far that are JSON, parsed. */
function logLines(service: ServiceProcess): LogLine[] {
  return service.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

describe('logs', () => {
  it("writes pino's line shape in prod: numeric level, epoch-ms time, msg", async () => {
    const service = start();
    await service.url();
    expect(logLines(service)[0]).toMatchObject({
      level: 30,
      time: expect.any(Number),
      msg: expect.stringMatching(/^listening on /),
    });
  });

  it('writes one JSON line per request in prod, with method, path, status, ms and the id it answered with', async () => {
    const service = start();
    const answer = await fetch(`${await service.url()}/api/todos/nope?secret=1`);
    const line = (await service.waitFor(/^.*"msg":"request".*$/m))[0];
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/api/todos/nope',
      status: 404,
      ms: expect.any(Number),
      reqId: answer.headers.get('x-request-id'),
    });
  });

  it("logs the client's X-Request-Id with its request", async () => {
    const service = start();
    const url = await service.url();
    await fetch(`${url}/api/todos`, { headers: { 'x-request-id': 'checkout-7f3a' } });
    await service.waitFor(/"reqId":"checkout-7f3a"/);
    expect(logLines(service).filter((line) => line.reqId === 'checkout-7f3a')).toEqual([
      expect.objectContaining({ msg: 'request', path: '/api/todos', status: 200 }),
    ]);
  });

  it('does not log health checks at the info level', async () => {
    const service = start();
    const url = await service.url();
    await fetch(`${url}/healthz`);
    await fetch(`${url}/hello`);
    await service.waitFor(/"path":"\/hello"/);
    expect(logLines(service).filter((line) => line.path === '/healthz')).toEqual([]);
  });

  it('writes a line beyond ASCII whole, even the last one before it exits', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const dir = configDir((shipped) => shipped, 'réglages-✓-');
    const service = start([], { PORT: String(port), TODO_CONFIG_DIR: dir });
    await service.exited;
    taken.close();
    expect(logLines(service).at(-1)).toMatchObject({
      level: 60,
      msg: expect.stringContaining(`change ${dir}/prod.yaml.`),
    });
  });

  it('writes one readable line per request in dev, with its id', async () => {
    const service = start(['dev']);
    await fetch(`${await service.url()}/hello`, { headers: { 'x-request-id': 'dev-1' } });
    await service.waitFor(/ GET \/hello 200 \d+\.\dms dev-1$/m);
  });
});

describe('--help', () => {
  it('prints the profiles, the environment variables and where the config lives, and exits 0', async () => {
    const service = start(['--help']);
    expect((await service.exited).code).toBe(0);
    for (const shown of ['dev', 'prod', 'PORT', 'HOST', 'TODO_CONFIG_DIR', 'config/prod.yaml']) {
      expect(service.stdout).toContain(shown);
    }
  });

  it('says where each profile listens and how it logs, as its file sets it', async () => {
    const service = start(['--help']);
    await service.exited;
    expect(service.stdout).toContain(
      'listens on 127.0.0.1:8080 and logs short readable lines (pino-pretty) at the debug level',
    );
  });

  it('is offered when the start argument is wrong', async () => {
    const service = start(['staging']);
    await service.exited;
    expect(service.stderr).toContain('See --help.');
  });
});

describe('shutdown', () => {
  /** Request lines of ~190 bytes each: more than 16 KiB of them. */
  const CREATES_PAST_A_LOG_WRITE = 120;

  it('exits 0 on SIGTERM', async () => {
    const service = start();
    await service.url();
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('exits 0 on SIGINT', async () => {
    const service = start();
    await service.url();
    service.child.kill('SIGINT');
    expect((await service.exited).code).toBe(0);
  });

  it('goes on serving when nothing reads its log any more', async () => {
    const service = start();
    const url = await service.url();
    service.child.stdout!.destroy();
    const statuses: number[] = [];
    // Enough lines to fill a write of the log (16 KiB), which fails, and then long enough for
    // the lines held after it to go too (50 ms): the service must go on through both.
    for (let index = 0; index < CREATES_PAST_A_LOG_WRITE; index += 1) {
      const created = await fetch(`${url}/api/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Item ${index}` }),
      });
      statuses.push(created.status);
    }
    await delay(250);
    const listed = await fetch(`${url}/api/todos`);
    expect({ statuses, listed: ((await listed.json()) as unknown[]).length }).toEqual({
      statuses: Array(CREATES_PAST_A_LOG_WRITE).fill(201),
      listed: CREATES_PAST_A_LOG_WRITE,
    });
  });

  it('exits 0 on SIGTERM though nothing reads its log any more', async () => {
    const service = start();
    await service.url();
    // The log collector died, or `| pino-pretty` was stopped: every write to stdout fails.
    service.child.stdout!.destroy();
    service.child.kill('SIGTERM');
    const stillRunning = new Promise((resolve) => setTimeout(() => resolve('still running'), 5000));
    expect(await Promise.race([service.exited, stillRunning])).toEqual({ code: 0, signal: null });
  });

  /**
   * A create whose body arrives only when `release` is called, so it stays in flight. It
   * resolves once the service has read the request's headers: Node answers `Expect:
   * 100-continue` only then, so no sleep has to guess how long that takes.
   */
  const slowCreate = (url: string) =>
    new Promise<{ status: Promise<number>; release(): void }>((resolve, reject) => {
      const request = httpRequest(`${url}/api/todos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', expect: '100-continue' },
      });
      const status = new Promise<number>((answered, failed) => {
        request.on('response', (response) => {
          response.resume();
          answered(response.statusCode!);
        });
        request.on('error', failed);
      });
      status.catch(() => {});
      request.on('error', reject);
      request.on('continue', () => {
        request.write('{"title":');
        resolve({ status, release: () => request.end('"late"}') });
      });
      request.flushHeaders();
    });

  it('lets a request in flight finish before exiting 0', async () => {
    const service = start();
    const { status, release } = await slowCreate(await service.url());
    service.child.kill('SIGTERM');
    await service.waitFor(/SIGTERM: shutting down/);
    release();
    expect(await status).toBe(201);
    expect((await service.exited).code).toBe(0);
  });

  it('stops accepting connections once shutting down', async () => {
    const service = start();
    const url = await service.url();
    const { release } = await slowCreate(url);
    service.child.kill('SIGTERM');
    await service.waitFor(/SIGTERM: shutting down/);
    await expect(fetch(`${url}/hello`)).rejects.toThrow();
    release();
  });

  it('closes a request that outlives the shutdown timeout and still exits 0', async () => {
    const dir = configDir((yaml) =>
      yaml.replace('shutdownTimeoutMs: 10000', 'shutdownTimeoutMs: 200'),
    );
    const service = start([], { TODO_CONFIG_DIR: dir });
    await slowCreate(await service.url());
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });

  it('ends open event streams cleanly and exits 0', async () => {
    const service = start();
    const response = await fetch(`${await service.url()}/api/sse`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = (await reader.read()).value!;
    service.child.kill('SIGTERM');
    // A stream cut by the shutdown timeout would fail here instead of ending.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      received += chunk.value;
    }
    expect(received).toMatch(/^retry: 3000\n\n/);
    expect((await service.exited).code).toBe(0);
  });

  /** An open event stream, its first chunk read: what it says until the server ends it. */
  const openStream = async (url: string) => {
    const response = await fetch(`${url}/api/sse`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = (await reader.read()).value!;
    return async () => {
      // A stream cut instead of ended (by the shutdown timeout, say) fails here.
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        received += chunk.value;
      }
      return received;
    };
  };

  it('ends streams and finishes requests in flight together, exiting 0 within the timeout', async () => {
    const shutdownTimeoutMs = 8000;
    const dir = configDir((yaml) =>
      yaml.replace('shutdownTimeoutMs: 10000', `shutdownTimeoutMs: ${shutdownTimeoutMs}`),
    );
    const service = start([], { TODO_CONFIG_DIR: dir });
    const url = await service.url();
    const streams = await Promise.all([openStream(url), openStream(url)]);
    const creates = await Promise.all([slowCreate(url), slowCreate(url)]);
    const signalled = performance.now();
    service.child.kill('SIGTERM');
    // The streams end while the requests are still in flight: they do not wait for them.
    const ended = await Promise.all(streams.map((readToEnd) => readToEnd()));
    expect(ended.every((text) => text.startsWith('retry: 3000\n\n'))).toBe(true);
    creates.forEach(({ release }) => release());
    expect(await Promise.all(creates.map(({ status }) => status))).toEqual([201, 201]);
    expect((await service.exited).code).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(shutdownTimeoutMs);
  });

  it('exits at once on a second signal', async () => {
    const service = start();
    await slowCreate(await service.url());
    service.child.kill('SIGTERM');
    await service.waitFor(/SIGTERM: shutting down/);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(143);
  });

  describe('with a drain delay', () => {
    /** A service that keeps serving for `drainDelayMs` after SIGTERM, already signalled. */
    const drainingService = async () => {
      const dir = configDir((yaml) => yaml.replace('drainDelayMs: 0', 'drainDelayMs: 5000'));
      const service = start([], { TODO_CONFIG_DIR: dir });
      const url = await service.url();
      service.child.kill('SIGTERM');
      await service.waitFor(/SIGTERM: shutting down/);
      return { service, url };
    };

    it('answers /healthz with 503 once SIGTERM has come', async () => {
      const { url } = await drainingService();
      const response = await fetch(`${url}/healthz`);
      expect([response.status, response.headers.get('content-type')]).toEqual([
        503,
        'application/problem+json; charset=utf-8',
      ]);
    });

    it('still serves the API while /healthz says it is going away', async () => {
      const { url } = await drainingService();
      expect((await fetch(`${url}/api/todos`)).status).toBe(200);
    });

    it('exits 0 once the delay is over', async () => {
      const { service } = await drainingService();
      expect((await service.exited).code).toBe(0);
    });
  });
});
