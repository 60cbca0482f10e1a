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
    for (const [from, to] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      this.#sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#sockets.delete(from);
        to.destroy();
      });
    }
  }
}
