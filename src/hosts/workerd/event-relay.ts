import {
  EventClient,
  lastEventIdOf,
  MAX_BACKLOG_BYTES,
  PING,
  type EventChannel,
} from '../../live/event-channel.ts';
import { openWebEventChannel } from '../../live/web-event-channel.ts';
import {
  endStream,
  OPENING_BYTES_HEADER,
  opensWithSnapshot,
  STREAM_ENDED,
  withoutRetry,
} from './relay-protocol.ts';

/** Headers of the object's WebSocket answer that are not the stream's. */
const SOCKET_HEADERS = ['upgrade', 'connection', 'sec-websocket-accept', OPENING_BYTES_HEADER];

/**
 * Answers `GET` of a list's event stream, fed by a hibernatable WebSocket to the list's object
 * so that the object can sleep between changes; the object's refusal (404, 503, …) as it is.
 * `free` frees the client's place once no stream came of it, or its stream ended.
 */
export async function relayEvents(
  request: Request,
  listObject: () => DurableObjectStub,
  heartbeatSeconds: number,
  free: () => void,
): Promise<Response> {
  let answer: Response;
  try {
    answer = await listObject().fetch(upgradeOf(request));
  } catch (error) {
    free();
    throw error;
  }
  const socket = answer.webSocket;
  if (socket === null) {
    free();
    return answer;
  }
  const openingBytes = Number(answer.headers.get(OPENING_BYTES_HEADER));
  const headers = new Headers(answer.headers);
  for (const name of SOCKET_HEADERS) headers.delete(name);
  const channel = openWebEventChannel(openingBytes + MAX_BACKLOG_BYTES);
  const response = channel.respond({ status: 200, headers });
  new EventRelay(listObject, request, channel, heartbeatSeconds, free).listen(accepted(socket));
  return response;
}

/** One client's stream, fed from the object's socket, and from its next one if it restarts. */
class EventRelay {
  /** A new stub each time: one whose object was reset throws. */
  readonly #listObject: () => DurableObjectStub;
  readonly #request: Request;
  readonly #client: EventClient;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  readonly #free: () => void;
  #socket: WebSocket | undefined;
  /** The id of the last event passed on whole, where the stream resumes if its socket goes. */
  #lastEventId: string | undefined;
  #ended = false;

  constructor(
    listObject: () => DurableObjectStub,
    request: Request,
    channel: EventChannel,
    heartbeatSeconds: number,
    free: () => void,
  ) {
    this.#listObject = listObject;
    this.#free = free;
    this.#request = request;
    this.#lastEventId = lastEventIdOf(request);
    this.#client = new EventClient(channel, request.signal, () => this.#stop());
    this.#heartbeat = setInterval(() => this.#client.send(PING), heartbeatSeconds * 1000);
    // A client that left before the stream began is never told so by its signal.
    if (request.signal.aborted) this.#client.end();
  }

  /** Passes on what comes on `socket`, accepted; `resumed`: it replaces one that was lost. */
  listen(socket: WebSocket, resumed = false): void {
    // The client may have left while the object was asked for the socket.
    if (this.#ended) return endStream(socket);
    this.#socket = socket;
    let awaitingOpening = resumed;
    socket.addEventListener('message', ({ data }) => {
      if (typeof data === 'string') return void (this.#lastEventId = data);
      const bytes = new Uint8Array(data as ArrayBuffer);
      if (!awaitingOpening) return this.#client.send(bytes);
      awaitingOpening = false;
      // The new object could not go on from the last id: see `#reconnect`.
      if (opensWithSnapshot(bytes)) this.#client.end();
      else this.#client.send(withoutRetry(bytes));
    });
    const closed = (code: number) => {
      if (socket !== this.#socket || this.#ended) return;
      this.#socket = undefined;
      if (code === STREAM_ENDED || awaitingOpening) this.#client.end();
      else void this.#reconnect();
    };
    socket.addEventListener('close', ({ code }) => closed(code));
    socket.addEventListener('error', () => closed(0));
  }

  /**
   * The object restarted (evicted, deployed, moved): a new one goes on after the last event
   * delivered. Where it cannot (its list was kept in memory, and started again), the stream
   * ends, and the client's EventSource reconnects by id and gets the whole list.
   */
  async #reconnect(): Promise<void> {
    try {
      const answer = await this.#listObject().fetch(upgradeOf(this.#request, this.#lastEventId));
      const socket = answer.webSocket;
      if (socket === null) {
        await answer.body?.cancel();
        return this.#client.end();
      }
      this.listen(accepted(socket), true);
    } catch {
      this.#client.end();
    }
  }

  /** The client left, fell too far behind, or its stream ended: the object hears of it. */
  #stop(): void {
    this.#ended = true;
    clearInterval(this.#heartbeat);
    this.#free();
    if (this.#socket !== undefined) endStream(this.#socket);
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
