import { STATUS_CODES, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { finished } from 'node:stream';

/** What Node itself answers to each client error; anything else is a 400. */
const STATUS_OF: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Answers bytes Node cannot parse as Node does (a bare 4xx, the connection ended), but after the
 * answer to a whole request before them on that connection: Node's own handler destroys the
 * connection at once, losing that answer (a 201, say), and the client takes the 400 for it.
 */
export function answerClientErrorsInOrder(server: Server): void {
  const answering = new WeakMap<Socket, ServerResponse>();
  server.on('request', (request, response) => answering.set(request.socket, response));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = answering.get(socket);
    const refuse = () => {
      // Bytes written into an answer already under way would corrupt it.
      const midAnswer = inFlight?.headersSent && !inFlight.writableFinished;
      if (socket.writable && !midAnswer) {
        const status = STATUS_OF[error.code ?? ''] ?? 400;
        socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
      }
      socket.destroy(error);
    };
    if (inFlight?.req.complete && !inFlight.writableFinished) finished(inFlight, refuse);
    else refuse();
  });
}
