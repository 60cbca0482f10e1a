import { MAX_BACKLOG_BYTES, type EventChannel } from '../../live/event-channel.ts';
import type { LiveList } from '../../lists/live-list.ts';
import {
  endStream,
  messagesOf,
  SEND_WINDOW_BYTES,
  STREAM_BEHIND,
  STREAM_ENDED,
} from './relay-protocol.ts';

/** What a stream's socket keeps while the object hibernates. */
interface Attachment {
  /** The run of the list the stream was opened on. */
  readonly run: string;
  readonly viewOnly: boolean;
  /** Whether bytes waited to be sent, which left memory with the object that held them. */
  readonly waiting?: boolean;
}

/** A list object's event streams, each a WebSocket to a worker, kept open while it hibernates. */
export class EventSockets {
  /** Weak: a channel is forgotten with its socket. */
  readonly #channels = new WeakMap<WebSocket, SocketChannel>();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly listOf: () => LiveList | undefined,
  ) {}

  readonly open = (queueBytes: number, viewOnly = false): EventChannel => {
    const { 0: peer, 1: socket } = new WebSocketPair();
    const attachment: Attachment = { run: this.listOf()!.store.run, viewOnly };
    const channel = new SocketChannel(socket, attachment, queueBytes, () => {
      this.ctx.acceptWebSocket(socket);
      return peer;
    });
    this.#channels.set(socket, channel);
    return channel;
  };

  /**
   * Hands the list the streams held before the object hibernated, once it has its view id; one
   * opened on another run of the list, or that had bytes waiting, ends: its client reconnects.
   */
  async adoptAll(): Promise<void> {
    const sockets = this.ctx.getWebSockets();
    const list = sockets.length > 0 ? this.listOf() : undefined;
    await list?.viewId();
    for (const socket of sockets) {
      const attachment = socket.deserializeAttachment() as Attachment;
      if (list !== undefined && attachment.run === list.store.run && !attachment.waiting) {
        const channel = new SocketChannel(socket, attachment, MAX_BACKLOG_BYTES);
        this.#channels.set(socket, channel);
        list.events.adopt(channel, attachment.viewOnly);
      } else endStream(socket);
    }
  }

  /** The worker's message: how many more bytes its client took. */
  received(socket: WebSocket, message: string | ArrayBuffer): void {
    this.#channels.get(socket)?.taken(Number(message) || 0);
  }

  closed(socket: WebSocket): void {
    this.#channels.get(socket)?.leave();
  }
}

/** One stream's socket: past `SEND_WINDOW_BYTES` unacknowledged, the rest waits, as views. */
class SocketChannel implements EventChannel {
  readonly #waiting: Uint8Array[] = [];
  #waitingBytes = 0;
  #unacked = 0;
  /** Set once the stream ends: the socket closes with it when nothing waits. */
  #closeCode: number | undefined;
  #open = true;
  #gone = () => {};

  /** Without `acceptUnanswered`, `socket` is one an earlier instance of the object accepted. */
  constructor(
    private readonly socket: WebSocket,
    /** As last written: what it says of `waiting` is undefined until then. */
    private attachment: Attachment,
    /** The most that may wait, as on Node: the opening and `MAX_BACKLOG_BYTES`. */
    private readonly limit: number,
    /** Until the handler answers: accepts the socket, and gives the worker's end. */
    private acceptUnanswered?: () => WebSocket,
  ) {}

  write(bytes: Uint8Array): boolean {
    if (this.#closeCode !== undefined) return false;
    for (const message of messagesOf(bytes)) this.#waiting.push(message);
    this.#waitingBytes += bytes.byteLength;
    if (this.#waitingBytes > this.limit) return false;
    this.#send();
    return this.#open;
  }

  taken(byteCount: number): void {
    this.#unacked = Math.max(0, this.#unacked - byteCount);
    this.#send();
  }

  /**
   * Ends the stream after what waits, or, `now` (the client fell behind), at once, with the
   * code that has the worker drop its client, which resumes by id.
   */
  end(now: boolean): void {
    this.#closeCode ??= now ? STREAM_BEHIND : STREAM_ENDED;
    if (now) {
      this.#waiting.length = 0;
      this.#waitingBytes = 0;
    }
    this.#send();
  }

  onGone(listener: () => void): void {
    this.#gone = listener;
  }

  leave(): void {
    if (!this.#open) return;
    this.end(true);
    this.#gone();
  }

  // The handler answers with the stream in the step that opens it: nothing ends it before.
  respond(init: ResponseInit): Response {
    const peer = this.acceptUnanswered!();
    this.acceptUnanswered = undefined;
    this.#send();
    return new Response(null, { status: 101, webSocket: peer, headers: init.headers });
  }

  #send(): void {
    if (this.acceptUnanswered !== undefined || !this.#open) return;
    try {
      while (this.#unacked + (this.#waiting[0]?.byteLength ?? Infinity) <= SEND_WINDOW_BYTES) {
        const message = this.#waiting.shift()!;
        this.socket.send(message);
        this.#waitingBytes -= message.byteLength;
        this.#unacked += message.byteLength;
      }
      const waiting = this.#waiting.length > 0;
      if (this.#closeCode !== undefined && !waiting) {
        this.#open = false;
        return endStream(this.socket, this.#closeCode);
      }
      // What waits is lost if the object leaves memory: the attachment tells the next one.
      if (waiting !== this.attachment.waiting) {
        this.attachment = { ...this.attachment, waiting };
        this.socket.serializeAttachment(this.attachment);
      }
    } catch {
      this.leave();
    }
  }
}
