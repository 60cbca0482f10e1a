import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** What the proxy does with connections: pass them on, reset them, or answer them 503. */
export type ProxyMode = 'through' | 'reset' | 'unavailable';

const UNAVAILABLE =
  'HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n' +
  'connection: close\r\n\r\n';

/**
 * A TCP proxy in front of the service whose connections the test can cut, as a network drop
 * does: the browser sees its open event stream break, and its reconnects fail until restored.
 */
export class CuttableProxy {
  #mode: ProxyMode = 'through';
  readonly #sockets = new Set<Socket>();
  #loseAnswer: { readonly start: string; readonly lost: () => void } | undefined;

  private constructor(
    private readonly server: ReturnType<typeof createServer>,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<CuttableProxy> {
    const { hostname, port } = new URL(target);
    let proxy: CuttableProxy | undefined;
    const server = createServer((socket) => proxy!.#accept(socket, hostname, Number(port)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as AddressInfo;
    proxy = new CuttableProxy(server, `http://127.0.0.1:${address.port}`);
    return proxy;
  }

  /** Breaks every open connection; later ones get `mode` until `restore()`. */
  cut(mode: Exclude<ProxyMode, 'through'> = 'reset'): void {
    this.#mode = mode;
    for (const socket of this.#sockets) socket.resetAndDestroy();
  }

  restore(): void {
    this.#mode = 'through';
  }

  /**
   * Passes the next request that starts with `start` (as `POST /api/todos`) on to the service,
   * then breaks its connection as the answer comes back, before the client gets any of it: the
   * service did the work, the client never learns. Resolves once that has happened.
   */
  loseNextAnswer(start: string): Promise<void> {
    return new Promise((lost) => {
      this.#loseAnswer = { start, lost };
    });
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  #accept(socket: Socket, host: string, port: number): void {
    if (this.#mode === 'reset') return void socket.resetAndDestroy();
    if (this.#mode === 'unavailable') {
      socket.once('data', () => socket.end(UNAVAILABLE));
      socket.on('error', () => {});
      return;
    }
    const upstream = connect(port, host);
    this.#sockets.add(socket).add(upstream);
    let losing: (() => void) | undefined;
    socket.on('data', (chunk: Buffer) => {
      const loseAnswer = this.#loseAnswer;
      if (loseAnswer !== undefined && chunk.toString('latin1').startsWith(loseAnswer.start)) {
        this.#loseAnswer = undefined;
        losing = loseAnswer.lost;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (losing === undefined) return void socket.write(chunk);
      if (!socket.destroyed) socket.resetAndDestroy();
      losing();
    });
    for (const [from, to] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      from.on('end', () => to.end());
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#sockets.delete(from);
        to.destroy();
      });
    }
  }
}
