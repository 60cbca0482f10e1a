import { createServer } from 'node:net';

/**
 * Asks the system for a port nobody listens on. Another process may take it before the caller
 * listens on it, so a caller starts again on a new one when it finds the port taken.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
