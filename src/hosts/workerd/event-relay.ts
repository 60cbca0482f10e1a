import { EventClient, PING, webEventChannel } from '../../live/event-channel.ts';
import { lastEventIdOf } from '../../live/event-streams.ts';
import * as protocol from './relay-protocol.ts';

/**
 * A list's event stream fed by a WebSocket to its object (a new stub each time: one whose object
 * was reset throws), or its refusal; `free` frees the client's place once no stream came of it,
 * or its stream ended.
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
  if (answer.webSocket === null) {
    free();
    return answer;
  }
  const headers = new Headers(answer.headers);
  // The headers of the object's WebSocket answer are not the stream's.
  for (const name of ['upgrade', 'connection', 'sec-websocket-accept']) headers.delete(name);

  // What the client was sent: where the stream resumes if its socket goes, and whether it can.
  const passed = new protocol.PassedMessages(lastEventIdOf(request));
  let socket: WebSocket | undefined;
  /** Bytes the client took that the object was not yet told of. */
  let untold = 0;
  let failuresInARow = 0;
  let reopening: ReturnType<typeof setTimeout> | null = null;
  let ended = false;

  const channel = webEventChannel(protocol.RELAY_QUEUE_BYTES, (byteCount) => {
    untold += byteCount;
    if (untold < protocol.ACK_BYTES) return;
    try {
      socket?.send(String(untold));
      untold = 0;
    } catch {
      // The socket closed; its close event says what comes next.
    }
  });
  // A ping inside a message that comes in pieces would end it early.
  const heartbeat = setInterval(() => {
    if (passed.atMessageEnd) client.send(PING);
  }, heartbeatSeconds * 1000);
  const client = new EventClient(channel, request.signal, () => {
    ended = true;
    clearInterval(heartbeat);
    free();
    clearTimeout(reopening);
    if (socket !== undefined) protocol.endStream(socket);
  });
  // A client that left before the stream began is never told so by its signal.
  if (request.signal.aborted) client.end();

  /** Passes on what comes on `opened`, as bytes, not Blobs; `resumed`: it replaces one lost. */
  const listen = (opened: WebSocket, resumed: boolean) => {
    opened.binaryType = 'arraybuffer';
    opened.accept();
    // The client may have left while the object was asked for the socket.
    if (ended) return protocol.endStream(opened);
    socket = opened;
    // What was queued before is taken first: the new object is told only of what follows.
    untold = -channel.heldBytes;
    const openedAt = Date.now();
    let awaitingOpening = resumed;
    opened.addEventListener('message', ({ data }) => {
      let bytes: Uint8Array = new Uint8Array(data as ArrayBuffer);
      if (awaitingOpening) {
        bytes = protocol.withoutRetry(bytes);
        if (bytes.byteLength === 0) return;
        awaitingOpening = false;
        // The new object cannot go on from the last id: the client's EventSource resumes by it.
        if (protocol.startsWithSnapshot(bytes)) return client.end();
      }
      passed.pass(bytes);
      client.send(bytes);
    });
    const closed = (code: number) => {
      if (opened !== socket || ended) return;
      socket = undefined;
      if (code === protocol.STREAM_BEHIND) return client.end(true);
      // Resumed after half a message, the stream would append the next to it: it ends, and
      // the client's EventSource drops the half and comes back with the id of the last whole.
      if (code === protocol.STREAM_ENDED || !passed.atMessageEnd) return client.end();
      if (Date.now() - openedAt >= protocol.RECONNECT.steadyMs) failuresInARow = 0;
      reopenLater();
    };
    opened.addEventListener('close', ({ code }) => closed(code));
    opened.addEventListener('error', () => closed(0));
  };

  const reopenLater = () => {
    failuresInARow += 1;
    if (failuresInARow > protocol.RECONNECT.attempts) return client.end();
    const { firstDelayMs, maxDelayMs } = protocol.RECONNECT;
    const delayMs = Math.min(maxDelayMs, firstDelayMs * 2 ** (failuresInARow - 1));
    // Half to all of it, at random: the streams of one object do not all come back at once.
    reopening = setTimeout(() => void reconnect(), delayMs / 2 + (Math.random() * delayMs) / 2);
  };

  // The object restarted: a new one goes on after the last event delivered. One that refuses
  // the stream (its list is gone) ends it, as does one that cannot go on from that event.
  const reconnect = async () => {
    if (ended) return;
    try {
      const again = await listObject().fetch(upgradeOf(request, passed.lastId));
      if (again.webSocket !== null) return listen(again.webSocket, true);
      await again.body?.cancel();
      client.end();
    } catch {
      reopenLater();
    }
  };

  const response = channel.respond({ status: 200, headers });
  listen(answer.webSocket, false);
  return response;
}

function upgradeOf(request: Request, lastEventId?: string): Request {
  const headers = new Headers(request.headers);
  headers.set('upgrade', 'websocket');
  if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
  return new Request(request.url, { headers });
}
