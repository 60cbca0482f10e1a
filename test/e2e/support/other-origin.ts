import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/scenario.js': { file: 'scenario.js', type: 'text/javascript; charset=utf-8' },
};
const FOLDER = new URL('../other-origin/', import.meta.url);

/** A static server on another port: its pages are on an origin other than the service's. */
export class OtherOrigin {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtherOrigin> {
    const server = createServer(async (request, response) => {
      const found = FILES[new URL(request.url ?? '/', 'http://x').pathname];
      if (!found) return void response.writeHead(404).end();
      const body = await readFile(new URL(found.file, FOLDER));
      response
        .writeHead(200, { 'content-type': found.type, 'cache-control': 'no-store' })
        .end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return new OtherOrigin(server, `http://127.0.0.1:${port}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
