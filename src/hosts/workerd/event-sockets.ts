import type { EventChannel } from '../../live/event-channel.ts';
import type { LiveList } from '../../lists/live-list.ts';
import { messagesOf, OPENING_BYTES_HEADER, STREAM_ENDED } from './relay-protocol.ts';

/** What a socket keeps while its object hibernates: the run of the list it was opened on. */
interface SocketAttachment {
  readonly run: string;
}

/**
 * The event streams of a list's object, each a WebSocket to the worker that carries the stream
 * to its client. The object accepts them with the Hibernation API, so it holds no request for
 * any of them and may leave memory while they stay open; the runtime keeps the sockets, and
 * wakes the object for a change or a closed socket. Each socket is an `EventChannel`, so the
 * list's `EventStreams` treats it as any other stream.
 */
export class EventSockets {
  readonly #ctx: DurableObjectState;
  /** The run of the list now in memory, kept on each socket to be checked after hibernation. */
  readonly #runOfList: () => string;
  readonly #channels = new Map<WebSocket, SocketChannel>();

  constructor(ctx: DurableObjectState, runOfList: () => string) {
    this.#ctx = ctx;
    this.#runOfList = runOfList;
  }

  /** A channel for a new stream; its socket is accepted when the handler answers with it. */
  readonly open = (): EventChannel =>
    SocketChannel.opened(this.#channels, (socket) => {
      this.#ctx.acceptWebSocket(socket);
      socket.serializeAttachment({ run: this.#runOfList() } satisfies SocketAttachment);
    });

  /**
   * Hands `list` the streams this object held before it hibernated. A stream opened on another
   * run of the list (a list kept in memory starts again when its object does) ends, and its
   * client reconnects to the list as it is now.
   */
  adoptAll(listOf: () => LiveList | undefined): void {
    const sockets = this.#ctx.getWebSockets();
    const list = sockets.length > 0 ? listOf() : undefined;
    for (const socket of sockets) {
      const { run } = socket.deserializeAttachment() as SocketAttachment;
      const sameRun = list !== undefined && run === list.store.run;
      if (sameRun && !list.deleted)
        list.events.adopt(SocketChannel.adopted(this.#channels, socket));
      else closeQuietly(socket, STREAM_ENDED);
    }
  }

  /** The worker closed the socket, or it failed: its client is gone. */
  closed(socket: WebSocket): void {
    this.#channels.get(socket)?.leave();
  }
}

/**
 * One stream's WebSocket, on the object's side. The runtime queues what is sent without a
 * limit, so the worker, which sees its client's own queue, drops a client that falls behind.
 */
class SocketChannel implements EventChannel {
  readonly #channels: Map<WebSocket, SocketChannel>;
  readonly #socket: WebSocket;
  /** The worker's end of a new socket, until the answer hands it over. */
  #peer: WebSocket | undefined;
  #accept: ((socket: WebSocket) => void) | undefined;
  /** What was written before the socket was accepted: the opening. */
  readonly #pending: { readonly bytes: Uint8Array; readonly lastId?: string }[] = [];
  #open = true;
  #gone = () => {};

  private constructor(channels: Map<WebSocket, SocketChannel>, socket: WebSocket) {
    this.#channels = channels;
    this.#socket = socket;
  }

  /** A new socket, accepted by `accept` when the handler answers with it. */
  static opened(
    channels: Map<WebSocket, SocketChannel>,
    accept: (socket: WebSocket) => void,
  ): SocketChannel {
    const { 0: peer, 1: own } = new WebSocketPair();
    const channel = new SocketChannel(channels, own);
    channel.#peer = peer;
    channel.#accept = accept;
    return channel;
  }

  /** A socket an earlier instance of the object accepted. */
  static adopted(channels: Map<WebSocket, SocketChannel>, socket: WebSocket): SocketChannel {
    const channel = new SocketChannel(channels, socket);
    channels.set(socket, channel);
    return channel;
  }

  get room(): number | null {
    return this.#open ? Number.MAX_SAFE_INTEGER : null;
  }

  write(bytes: Uint8Array, lastId?: string): void {
    if (this.#accept !== undefined) return void this.#pending.push({ bytes, lastId });
    try {
      for (const message of messagesOf(bytes)) this.#socket.send(message);
      if (lastId !== undefined) this.#socket.send(lastId);
    } catch {
      this.leave();
    }
  }

  close(): void {
    this.#end();
  }

  abort(): void {
    this.#end();
  }

  onGone(listener: () => void): void {
    this.#gone = listener;
  }

  leave(): void {
    if (!this.#open) return;
    this.#end();
    this.#gone();
  }

  // The handler opens a stream and answers with it in one synchronous step, so nothing ends
  // the stream before this.
  respond(init: ResponseInit): Response {
    this.#accept!(this.#socket);
    this.#accept = undefined;
    this.#channels.set(this.#socket, this);
    const headers = new Headers(init.headers);
    const openingBytes = this.#pending.reduce((total, { bytes }) => total + bytes.byteLength, 0);
    headers.set(OPENING_BYTES_HEADER, String(openingBytes));
    for (const { bytes, lastId } of this.#pending.splice(0)) this.write(bytes, lastId);
    return new Response(null, { status: 101, webSocket: this.#peer!, headers });
  }

  #end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#channels.delete(this.#socket);
    closeQuietly(this.#socket, STREAM_ENDED);
  }
}

/** Closes a socket that may have closed already. */
function closeQuietly(socket: WebSocket, code: number): void {
  try {
    socket.close(code);
  } catch {
    // Closed already: nothing is left to tell the worker.
  }
}
