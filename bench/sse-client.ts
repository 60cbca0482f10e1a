import { connect } from 'node:net';

/** One open `GET /api/sse` on a raw socket, counting the `created` events it receives. */
export interface CountingStream {
  /** Resolves once the answer is a 200 and its `snapshot` has arrived. */
  readonly opened: Promise<void>;
  /** Resolves when the connection closes; rejects if it failed. */
  readonly closed: Promise<void>;
  /** Whether the connection closed without `close()` being called. */
  readonly endedEarly: boolean;
  close(): void;
}

const SNAPSHOT = 'event: snapshot\n';
const CREATED = 'event: created\n';
const CREATED_BYTES = Buffer.from(CREATED, 'latin1');
/** Every stream reads into this one buffer: each read is handled before the next begins. */
const READ_BUFFER = Buffer.alloc(64 * 1024);

/**
 * Opens the stream at `url` and calls `onCreated(n, receivedAt)` when its n-th `created`
 * event arrives. A thousand of these share this process with the clock, so each does as
 * little as it can: no HTTP client, no stream events, no allocation per read, only a search
 * for the one marker.
 */
export function openCountingStream(
  url: URL,
  onCreated: (count: number, receivedAt: number) => void,
): CountingStream {
  let head = '';
  let isOpen = false;
  let closing = false;
  let count = 0;
  // A marker may be split between two reads: keep the end of the last one.
  let tail = '';
  let opened: { resolve: () => void; reject: (error: Error) => void } | undefined;
  const openedPromise = new Promise<void>((resolve, reject) => (opened = { resolve, reject }));
  const onRead = (length: number): boolean => {
    const receivedAt = performance.now();
    const buffer = READ_BUFFER;
    if (!isOpen) {
      head += buffer.toString('latin1', 0, length);
      if (!head.startsWith('HTTP/1.1 200') && head.length >= 12) {
        opened?.reject(new Error(`GET ${url} answered: ${head.slice(0, 200)}`));
        socket.destroy();
      } else if (head.includes(SNAPSHOT)) {
        isOpen = true;
        opened?.resolve();
        for (let at = head.indexOf(CREATED); at !== -1; at = head.indexOf(CREATED, at + 1)) {
          onCreated(++count, receivedAt);
        }
        tail = head.slice(-(CREATED.length - 1));
      }
      return true;
    }
    if (
      (tail + buffer.toString('latin1', 0, Math.min(length, CREATED.length - 1))).includes(CREATED)
    ) {
      onCreated(++count, receivedAt);
    }
    const data = buffer.subarray(0, length);
    for (
      let at = data.indexOf(CREATED_BYTES);
      at !== -1;
      at = data.indexOf(CREATED_BYTES, at + 1)
    ) {
      onCreated(++count, receivedAt);
    }
    tail = buffer.toString('latin1', Math.max(0, length - (CREATED.length - 1)), length);
    return true;
  };

  const socket = connect({
    port: Number(url.port),
    host: url.hostname,
    onread: { buffer: READ_BUFFER, callback: onRead },
  });
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`,
  );

  const closed = new Promise<void>((resolve, reject) => {
    socket.on('error', (error) => {
      opened?.reject(error);
      if (!closing) reject(error);
    });
    socket.on('close', () => {
      opened?.reject(new Error(`${url} closed before its snapshot.`));
      resolve();
    });
  });
  closed.catch(() => {});
  openedPromise.catch(() => {});
  return {
    opened: openedPromise,
    closed,
    get endedEarly() {
      return socket.destroyed && !closing;
    },
    close: () => {
      closing = true;
      socket.destroy();
    },
  };
}
