import { EventClient, lastEventIdOf, PING } from '../../live/event-channel.ts';
import { webEventChannel } from '../../live/web-event-channel.ts';
import {
  ACK_BYTES,
  endStream,
  PassedMessages,
  RECONNECT,
  reconnectDelayMs,
  RELAY_QUEUE_BYTES,
  startsWithSnapshot,
  STREAM_BEHIND,
  STREAM_ENDED,
  withoutRetry,
} from './relay-protocol.ts';

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
  const headers = new Headers(answer.headers);
  // The headers of the object's WebSocket answer are not the stream's.
  for (const name of ['upgrade', 'connection', 'sec-websocket-accept']) headers.delete(name);
  const relay = new EventRelay(listObject, request, heartbeatSeconds, free);
  const response = relay.channel.respond({ status: 200, headers });
  relay.listen(socket);
  return response;
}

/** One client's stream, fed from the object's socket, and from its next one if it restarts. */
class EventRelay {
  /** A new stub each time: one whose object was reset throws. */
  readonly #listObject: () => DurableObjectStub;
  readonly #request: Request;
  readonly channel = webEventChannel(RELAY_QUEUE_BYTES, (byteCount) => this.#taken(byteCount));
  readonly #client: EventClient;
  readonly #heartbeat: ReturnType<typeof setInterval>;
  readonly #free: () => void;
  #socket: WebSocket | undefined;
  /** What the client was sent: where the stream resumes if its socket goes, and whether it can. */
  readonly #passed: PassedMessages;
  /** Reopenings that failed in a row, and the wait before the next. */
  #failures = 0;
  #reopening: ReturnType<typeof setTimeout> | null = null;
  #ended = false;
  /** Bytes the client took that the object was not yet told of. */
  #untold = 0;

  constructor(
    listObject: () => DurableObjectStub,
    request: Request,
    heartbeatSeconds: number,
    free: () => void,
  ) {
    this.#listObject = listObject;
    this.#free = free;
    this.#request = request;
    this.#passed = new PassedMessages(lastEventIdOf(request));
    this.#client = new EventClient(this.channel, request.signal, () => this.#stop());
    // A ping inside a message that comes in pieces would end it early.
    const beat = () => {
      if (this.#passed.atMessageEnd) this.#client.send(PING);
    };
    this.#heartbeat = setInterval(beat, heartbeatSeconds * 1000);
    // A client that left before the stream began is never told so by its signal.
    if (request.signal.aborted) this.#client.end();
  }

  /** Passes on what comes on `socket`, as bytes, not Blobs; `resumed`: it replaces one lost. */
  listen(socket: WebSocket, resumed = false): void {
    socket.binaryType = 'arraybuffer';
    socket.accept();
    // The client may have left while the object was asked for the socket.
    if (this.#ended) return endStream(socket);
    this.#socket = socket;
    // What was queued before is taken first: the new object is told only of what follows.
    this.#untold = -this.channel.heldBytes;
    const openedAt = Date.now();
    let awaitingOpening = resumed;
    socket.addEventListener('message', ({ data }) => {
      let bytes: Uint8Array = new Uint8Array(data as ArrayBuffer);
      if (awaitingOpening) {
        bytes = withoutRetry(bytes);
        if (bytes.byteLength === 0) return;
        awaitingOpening = false;
        // The new object could not go on from the last id: see `#reconnect`.
        if (startsWithSnapshot(bytes)) return this.#client.end();
      }
      this.#passed.pass(bytes);
      this.#client.send(bytes);
    });
    const closed = (code: number) => {
      if (socket !== this.#socket || this.#ended) return;
      this.#socket = undefined;
      if (code === STREAM_BEHIND) return this.#client.end(true);
      // Resumed after half a message, the stream would append the next to it: it ends, and
      // the client's EventSource drops the half and comes back with the id of the last whole.
      if (code === STREAM_ENDED || !this.#passed.atMessageEnd) return this.#client.end();
      if (Date.now() - openedAt >= RECONNECT.steadyMs) this.#failures = 0;
      this.#reopenLater();
    };
    socket.addEventListener('close', ({ code }) => closed(code));
    socket.addEventListener('error', () => closed(0));
  }

  /** Reopens after a wait that grows with each failure in a row, or ends after too many. */
  #reopenLater(): void {
    this.#failures += 1;
    if (this.#failures > RECONNECT.attempts) return this.#client.end();
    this.#reopening = setTimeout(() => void this.#reconnect(), reconnectDelayMs(this.#failures));
  }

  /**
   * The object restarted (evicted, deployed, moved): a new one goes on after the last event
   * delivered. Where it cannot (its list was kept in memory, and started again), the stream
   * ends, and the client's EventSource reconnects by id and gets the whole list. An object
   * that answers without a socket refused the stream (its list is gone), which then ends.
   */
  async #reconnect(): Promise<void> {
    if (this.#ended) return;
    try {
      const answer = await this.#listObject().fetch(upgradeOf(this.#request, this.#passed.lastId));
      const socket = answer.webSocket;
      if (socket === null) {
        await answer.body?.cancel();
        return this.#client.end();
      }
      this.listen(socket, true);
    } catch {
      this.#reopenLater();
    }
  }

  /** The client took `byteCount` bytes: the object hears of each `ACK_BYTES`, to send more. */
  #taken(byteCount: number): void {
    this.#untold += byteCount;
    if (this.#untold < ACK_BYTES) return;
    try {
      this.#socket?.send(String(this.#untold));
      this.#untold = 0;
    } catch {
      // The socket closed; its close event says what comes next.
    }
  }

  /** The client left, fell too far behind, or its stream ended: the object hears of it. */
  #stop(): void {
    this.#ended = true;
    clearInterval(this.#heartbeat);
    this.#free();
    clearTimeout(this.#reopening);
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
