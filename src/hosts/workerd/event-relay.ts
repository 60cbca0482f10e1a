import { openWebEventChannel } from '../../live/event-channel.ts';
import { EventClient } from '../../live/event-client.ts';
import { MAX_BACKLOG_BYTES } from '../../live/event-streams.ts';
import { PING } from '../../live/heartbeat.ts';
import { lastEventIdIn, opensWithSnapshot, STREAM_ENDED, withoutRetry } from './relay-protocol.ts';

/** Headers of the object's WebSocket answer that belong to the socket, not to the stream. */
const SOCKET_HEADERS = ['upgrade', 'connection', 'sec-websocket-accept'];

/**
 * Answers `GET` of a list's event stream in the worker, which holds the stream to its client
 * and a hibernatable WebSocket to the list's object: the object keeps no request open, so it
 * sleeps between changes, and the worker is billed for the CPU it spends, not for the time the
 * stream stays open. The object's refusal (404, 503, …) is the answer as it gave it.
 */
export async function relayEvents(
  request: Request,
  listObject: () => DurableObjectStub,
  heartbeatSeconds: number,
): Promise<Response> {
  const answer = await listObject().fetch(upgradeOf(request));
  if (answer.webSocket === null) return answer;
  const headers = new Headers(answer.headers);
  for (const name of SOCKET_HEADERS) headers.delete(name);
  const opening = await openingOf(answer.webSocket).catch(() => undefined);
  // The object was gone before the stream began: an empty stream makes the client reconnect.
  const channel = openWebEventChannel((opening?.byteLength ?? 0) + MAX_BACKLOG_BYTES);
  const response = channel.respond({ status: 200, headers });
  if (opening === undefined) channel.close();
  else {
    new EventRelay(listObject, request, channel, heartbeatSeconds).start(answer.webSocket, opening);
  }
  return response;
}

/** One client's stream, fed from the object's socket, and from its next one if it restarts. */
class EventRelay {
  /** A new stub each time: one whose object was reset throws. */
  readonly #listObject: () => DurableObjectStub;
  readonly #request: Request;
  readonly #client: EventClient;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  #socket: WebSocket | undefined;
  #lastEventId: string | undefined;
  #ended = false;

  constructor(
    listObject: () => DurableObjectStub,
    request: Request,
    channel: ReturnType<typeof openWebEventChannel>,
    heartbeatSeconds: number,
  ) {
    this.#listObject = listObject;
    this.#request = request;
    this.#client = new EventClient(channel, request.signal, () => this.#stop());
    this.#heartbeat = setInterval(() => this.#client.send(PING), heartbeatSeconds * 1000);
  }

  start(socket: WebSocket, opening: Uint8Array): void {
    this.#deliver(opening);
    this.#listen(socket);
  }

  #listen(socket: WebSocket): void {
    this.#socket = socket;
    socket.addEventListener('message', ({ data }) => {
      this.#deliver(new Uint8Array(data as ArrayBuffer));
    });
    const closed = (code: number) => {
      if (socket !== this.#socket || this.#ended) return;
      this.#socket = undefined;
      if (code === STREAM_ENDED) this.#client.end();
      else void this.#reconnect();
    };
    socket.addEventListener('close', ({ code }) => closed(code));
    socket.addEventListener('error', () => closed(0));
  }

  #deliver(bytes: Uint8Array): void {
    this.#lastEventId = lastEventIdIn(bytes) ?? this.#lastEventId;
    this.#client.send(bytes);
  }

  /**
   * The object restarted (evicted, deployed, moved): a new one takes the stream on after the
   * last event delivered, with no gap and no repeat. When it cannot (its list was kept in
   * memory, and started again), the stream ends, and the client's EventSource reconnects by
   * id and gets the whole list.
   */
  async #reconnect(): Promise<void> {
    try {
      const answer = await this.#listObject().fetch(upgradeOf(this.#request, this.#lastEventId));
      const socket = answer.webSocket;
      if (socket === null) return this.#client.end();
      const opening = await openingOf(socket);
      if (this.#ended || opensWithSnapshot(opening)) {
        socket.close(STREAM_ENDED);
        return this.#client.end();
      }
      this.start(socket, withoutRetry(opening));
    } catch {
      this.#client.end();
    }
  }

  /** The client left, fell too far behind, or its stream ended: the object hears of it. */
  #stop(): void {
    this.#ended = true;
    clearInterval(this.#heartbeat);
    try {
      this.#socket?.close(STREAM_ENDED);
    } catch {
      // Closed already.
    }
  }
}

/** The request for a WebSocket to the list's object, resuming after `lastEventId` if given. */
function upgradeOf(request: Request, lastEventId?: string): Request {
  const headers = new Headers(request.headers);
  headers.set('upgrade', 'websocket');
  if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
  return new Request(request.url, { headers });
}

/** The object's first message on a new socket: the opening of the stream. */
function openingOf(socket: WebSocket): Promise<Uint8Array> {
  // Bytes to write as they come, not a Blob to read first.
  socket.binaryType = 'arraybuffer';
  socket.accept();
  return new Promise((resolve, reject) => {
    const opened = ({ data }: MessageEvent) => {
      socket.removeEventListener('close', failed);
      socket.removeEventListener('error', failed);
      resolve(new Uint8Array(data as ArrayBuffer));
    };
    const failed = () => {
      socket.removeEventListener('message', opened);
      reject(new Error('The list’s object closed the stream before it opened.'));
    };
    socket.addEventListener('message', opened, { once: true });
    socket.addEventListener('close', failed, { once: true });
    socket.addEventListener('error', failed, { once: true });
  });
}
