import { TEST_CLIENT_LIMITS } from '../../support/hosts.ts';
import { configDir, ServiceProcess } from '../../support/service-process.ts';

/**
 * The prod profile, but each client allowed as much as in the test hosts: every tab, page and
 * check of a run comes from 127.0.0.1.
 */
function e2eConfigDir(): string {
  const { listsPerMinute, maxClientsPerAddress } = TEST_CLIENT_LIMITS;
  return configDir((shipped) =>
    shipped
      .replace(/listsPerMinute: \d+/, `listsPerMinute: ${listsPerMinute}`)
      .replace(/maxClientsPerAddress: \d+/, `maxClientsPerAddress: ${maxClientsPerAddress}`),
  );
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** The start of the request id of the requests `requestsSoFar` makes to find its place in the log. */
const MARKER = 'log-marker-';

type MarkedRequest = LoggedRequest & { readonly reqId: string };

function withoutMarkers(logged: readonly MarkedRequest[]): LoggedRequest[] {
  return logged
    .filter(({ reqId }) => !reqId.startsWith(MARKER))
    .map(({ method, path, status }) => ({ method, path, status }));
}

/** The built service in a child process, as `npm start` runs it (prod profile). */
export class Service {
  private constructor(
    private readonly process: ServiceProcess,
    readonly url: string,
  ) {}

  /**
   * Starts on a free port, or on `port` to stand in for a service that was stopped; `env` adds
   * to its environment (`STORAGE_FILE`, say).
   */
  static async start(port = 0, env: Record<string, string> = {}): Promise<Service> {
    const config = { TODO_CONFIG_DIR: e2eConfigDir() };
    const process = new ServiceProcess([], { ...config, ...env, PORT: String(port) });
    try {
      return new Service(process, await process.url());
    } catch (error) {
      process.stop();
      throw error;
    }
  }

  /**
   * Starts again on a port given up a moment ago. While it was free, an outgoing connection on
   * a shared machine may have taken it as its local port; such a connection soon ends.
   */
  static async restartOn(port: number, env: Record<string, string> = {}): Promise<Service> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await Service.start(port, env);
      } catch (error) {
        if (attempt === 20 || !String(error).includes('the port is in use')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  /**
   * Every request the service has logged so far, in order. It writes its log in batches, up to
   * 50 ms late: `requestsSoFar` waits for the requests made before it.
   */
  requests(): LoggedRequest[] {
    return withoutMarkers(this.#logged());
  }

  /**
   * Every request made before this call, once the service has logged them: it sends a request
   * of its own and waits for that one's line, which the log writes after theirs.
   */
  async requestsSoFar(): Promise<LoggedRequest[]> {
    const marker = `${MARKER}${crypto.randomUUID()}`;
    const answer = await fetch(new URL('/hello', this.url), {
      headers: { 'x-request-id': marker },
    });
    await answer.text();
    for (let waited = 0; waited <= 2000; waited += 10) {
      const logged = this.#logged();
      const at = logged.findIndex(({ reqId }) => reqId === marker);
      if (at !== -1) return withoutMarkers(logged.slice(0, at));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('The service did not log a request within 2 s.');
  }

  #logged(): MarkedRequest[] {
    return this.process.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string } & MarkedRequest)
      .filter((entry) => entry.msg === 'request');
  }

  async api(path: string, method = 'GET', body?: unknown): Promise<Response> {
    return fetch(new URL(path, this.url), {
      method,
      ...(body !== undefined && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    });
  }

  /** SIGTERM, as a restart sends it; SIGKILL if it has not exited within five seconds. */
  async stop(): Promise<void> {
    const { child, exited } = this.process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => this.process.stop(), 5000);
    await exited;
    clearTimeout(timer);
  }
}
