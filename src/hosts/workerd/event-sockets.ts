import type { EventChannel } from '../../live/event-channel.ts';
import type { LiveList } from '../../lists/live-list.ts';
import { endStream, messagesOf, OPENING_BYTES_HEADER } from './relay-protocol.ts';

/** A new socket, until the handler answers with it: the worker's end, and how to accept ours. */
interface Unanswered {
  readonly peer: WebSocket;
  readonly accept: () => void;
}

/** What a stream's socket keeps while the object hibernates. */
interface Attachment {
  /** The run of the list the stream was opened on. */
  readonly run: string;
  /** Whether it was opened through the list's view id. */
  readonly viewOnly: boolean;
}

/**
 * A list object's event streams, each a WebSocket to the worker that carries it to its client,
 * accepted with the Hibernation API: the object may leave memory while they stay open, and the
 * runtime wakes it for a change or a closed socket.
 */
export class EventSockets {
  readonly #ctx: DurableObjectState;
  readonly #listOf: () => LiveList | undefined;
  /** Weak: a channel is forgotten with its socket. */
  readonly #channels = new WeakMap<WebSocket, SocketChannel>();

  constructor(ctx: DurableObjectState, listOf: () => LiveList | undefined) {
    this.#ctx = ctx;
    this.#listOf = listOf;
  }

  readonly open = (_queueBytes: number, viewOnly = false): EventChannel => {
    const { 0: peer, 1: socket } = new WebSocketPair();
    const accept = () => {
      this.#ctx.acceptWebSocket(socket);
      const attachment: Attachment = { run: this.#listOf()!.store.run, viewOnly };
      socket.serializeAttachment(attachment);
    };
    const channel = new SocketChannel(socket, { peer, accept });
    this.#channels.set(socket, channel);
    return channel;
  };

  /**
   * Hands the list the streams held before the object hibernated. One opened on another run of
   * the list (a list kept in memory starts again with its object) ends: its client reconnects.
   */
  adoptAll(): void {
    const sockets = this.#ctx.getWebSockets();
    const list = sockets.length > 0 ? this.#listOf() : undefined;
    for (const socket of sockets) {
      const { run, viewOnly } = socket.deserializeAttachment() as Attachment;
      if (list !== undefined && run === list.store.run) {
        const channel = new SocketChannel(socket);
        this.#channels.set(socket, channel);
        list.events.adopt(channel, viewOnly);
      } else endStream(socket);
    }
  }

  /** The worker closed the socket, or it failed: its client is gone. */
  closed(socket: WebSocket): void {
    this.#channels.get(socket)?.leave();
  }
}

/** One stream's WebSocket, on the object's side. */
class SocketChannel implements EventChannel {
  readonly #socket: WebSocket;
  #unanswered: Unanswered | undefined;
  /** What was written before the answer: the opening. */
  readonly #pending: Uint8Array[] = [];
  #open = true;
  #gone = () => {};

  /** Without `unanswered`, `socket` is one an earlier instance of the object accepted. */
  constructor(socket: WebSocket, unanswered?: Unanswered) {
    this.#socket = socket;
    this.#unanswered = unanswered;
  }

  // The runtime queues what is sent without a limit: the worker, which sees its client's own
  // queue, drops a client that falls behind.
  write(bytes: Uint8Array): boolean {
    if (this.#unanswered !== undefined) this.#pending.push(bytes);
    else {
      try {
        for (const message of messagesOf(bytes)) this.#socket.send(message);
      } catch {
        this.leave();
      }
    }
    return this.#open;
  }

  /** What was sent cannot be taken back: the stream ends after it, whenever asked to. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    endStream(this.#socket);
  }

  onGone(listener: () => void): void {
    this.#gone = listener;
  }

  leave(): void {
    if (!this.#open) return;
    this.end();
    this.#gone();
  }

  // The handler opens a stream and answers with it in one synchronous step: nothing ends the
  // stream before this.
  respond(init: ResponseInit): Response {
    const { peer, accept } = this.#unanswered!;
    accept();
    this.#unanswered = undefined;
    const headers = new Headers(init.headers);
    const openingBytes = this.#pending.reduce((total, bytes) => total + bytes.byteLength, 0);
    headers.set(OPENING_BYTES_HEADER, String(openingBytes));
    for (const bytes of this.#pending.splice(0)) this.write(bytes);
    return new Response(null, { status: 101, webSocket: peer, headers });
  }
}
