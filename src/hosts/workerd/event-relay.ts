import {
  EventClient,
  lastEventIdOf,
  MAX_BACKLOG_BYTES,
  openWebEventChannel,
  PING,
  type EventChannel,
} from '../../live/event-channel.ts';
import {
  OPENING_BYTES_HEADER,
  opensWithSnapshot,
  STREAM_ENDED,
  withoutRetry,
} from './relay-protocol.ts';

/** Headers of the object's WebSocket answer that are not the stream's. */
const SOCKET_HEADERS = ['upgrade', 'connection', 'sec-websocket-accept', OPENING_BYTES_HEADER];

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
  const socket = answer.webSocket;
  if (socket === null) return answer;
  const openingBytes = Number(answer.headers.get(OPENING_BYTES_HEADER));
  const headers = new Headers(answer.headers);
  for (const name of SOCKET_HEADERS) headers.delete(name);
  const channel = openWebEventChannel(openingBytes + MAX_BACKLOG_BYTES);
  const response = channel.respond({ status: 200, headers });
  new EventRelay(listObject, request, channel, heartbeatSeconds).listen(accepted(socket));
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
  /** The id of the last event passed on whole, where the stream resumes if its socket goes. */
  #lastEventId: string | undefined;
  #ended = false;

  constructor(
    listObject: () => DurableObjectStub,
    request: Request,
    channel: EventChannel,
    heartbeatSeconds: number,
  ) {
    this.#listObject = listObject;
    this.#request = request;
    this.#lastEventId = lastEventIdOf(request) ?? undefined;
    this.#client = new EventClient(channel, request.signal, () => this.#stop());
    this.#heartbeat = setInterval(() => this.#client.send(PING), heartbeatSeconds * 1000);
    // A client that left before the stream began is never told so by its signal.
    if (request.signal.aborted) this.#client.end();
  }

  /** Passes on what comes on `socket`, accepted: the first socket or one after a restart. */
  listen(socket: WebSocket): void {
    this.#socket = socket;
    socket.addEventListener('message', ({ data }) => {
      if (typeof data === 'string') this.#lastEventId = data;
      else this.#client.send(new Uint8Array(data as ArrayBuffer));
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

  /**
   * The object restarted (evicted, deployed, moved): a new one takes the stream on after the
   * last event delivered, with no gap and no repeat. When it cannot (its list was kept in
   * memory, and started again), the stream ends, and the client's EventSource reconnects by
   * id and gets the whole list.
   */
  async #reconnect(): Promise<void> {
    try {
      const request = upgradeOf(this.#request, this.#lastEventId);
      const answer = await this.#listObject().fetch(request);
      const socket = answer.webSocket;
      if (socket === null) {
        await answer.body?.cancel();
        return this.#client.end();
      }
      const opening = await openingOf(accepted(socket));
      if (this.#ended || opensWithSnapshot(opening)) {
        socket.close(STREAM_ENDED);
        return this.#client.end();
      }
      this.#client.send(withoutRetry(opening));
      this.listen(socket);
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

/** The worker's end of a socket to the object, taking bytes as they come, not as Blobs. */
function accepted(socket: WebSocket): WebSocket {
  socket.binaryType = 'arraybuffer';
  socket.accept();
  return socket;
}

/**
 * The first message on a new socket, which begins the opening of the stream; the socket is
 * listened to as soon as it is known, before the runtime dispatches the next message.
 */
function openingOf(socket: WebSocket): Promise<Uint8Array> {
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
