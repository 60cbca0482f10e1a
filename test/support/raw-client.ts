import { connect, type Socket } from 'node:net';

/**
 * One TCP connection to the server, written to by hand, that records every byte the server
 * sends. The socket is never half-closed unless a test ends it: Node answers a request whose
 * client has already sent FIN with 400.
 */
export class RawConnection {
  readonly socket: Socket;
  /** Resolves when the connection is gone, however it went. */
  readonly closed: Promise<void>;
  #chunks: Buffer[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.#chunks.push(chunk));
    // A server that hangs up on an abusive client may reset: `close` follows, and is enough.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  get text(): string {
    return this.bytes.toString('utf8');
  }

  write(data: string | Uint8Array): boolean {
    return this.socket.write(data);
  }

  /** Resolves with what arrived once `done` holds of it; rejects if the connection closes first. */
  until(done: (text: string) => boolean): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.text)) return;
        cleanup();
        resolve(this.text);
      };
      const closed = () => {
        cleanup();
        if (done(this.text)) resolve(this.text);
        else reject(new Error(`the connection closed first; received: ${this.text.slice(0, 500)}`));
      };
      const cleanup = () => {
        this.socket.off('data', check);
        this.socket.off('close', closed);
      };
      this.socket.on('data', check);
      this.socket.on('close', closed);
      check();
    });
  }
}

/** Sends `request` and resolves with everything the server sent until it closed. */
export async function exchange(url: string, request: string | Uint8Array): Promise<string> {
  const connection = await RawConnection.open(url);
  connection.write(request);
  await connection.closed;
  return connection.text;
}

/** Sends `request` and resolves with the responses the server sent until it closed. */
export async function responsesTo(
  url: string,
  request: string | Uint8Array,
): Promise<RawResponse[]> {
  const connection = await RawConnection.open(url);
  connection.write(request);
  await connection.closed;
  return parseResponses(connection.bytes);
}

export interface RawResponse {
  readonly status: number;
  /** Lowercase names; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * The responses in what a connection received, in order: bodies framed by Content-Length,
 * chunked encoding, or the end of the connection.
 */
export function parseResponses(received: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < received.length) {
    const headEnd = received.indexOf(HEAD_END, offset);
    if (headEnd === -1) throw new Error(`an incomplete head: ${received.subarray(offset)}`);
    const [statusLine, ...lines] = received
      .subarray(offset, headEnd)
      .toString('latin1')
      .split('\r\n');
    const status = Number(statusLine!.split(' ')[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    offset = headEnd + HEAD_END.length;
    let body: Buffer;
    if (status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (headers['transfer-encoding'] === 'chunked') {
      ({ body, offset } = readChunked(received, offset));
    } else if (headers['content-length'] !== undefined) {
      const end = offset + Number(headers['content-length']);
      body = received.subarray(offset, end);
      offset = end;
    } else {
      body = received.subarray(offset);
      offset = received.length;
    }
    responses.push({ status, headers, body: body.toString('utf8') });
  }
  return responses;
}

function readChunked(received: Buffer, start: number): { body: Buffer; offset: number } {
  const parts: Buffer[] = [];
  let offset = start;
  for (;;) {
    const lineEnd = received.indexOf('\r\n', offset);
    if (lineEnd === -1) return { body: Buffer.concat(parts), offset: received.length };
    const size = parseInt(received.subarray(offset, lineEnd).toString('latin1'), 16);
    offset = lineEnd + 2;
    if (size === 0) return { body: Buffer.concat(parts), offset: offset + 2 };
    parts.push(received.subarray(offset, offset + size));
    offset += size + 2;
  }
}

/**
 * A POST of `body` to /api/todos as JSON, with the true Content-Length unless told another;
 * it asks the server to close the connection after answering unless `keepAlive`.
 */
export function rawCreate(
  body: string | Uint8Array,
  { contentLength, keepAlive = false }: { contentLength?: number; keepAlive?: boolean } = {},
): Buffer {
  const bytes = Buffer.from(body);
  const head =
    'POST /api/todos HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${contentLength ?? bytes.length}\r\n${keepAlive ? '' : 'Connection: close\r\n'}\r\n`;
  return Buffer.concat([Buffer.from(head), bytes]);
}
