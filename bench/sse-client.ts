/** Called for each complete event block: its `event` field, its data, and when it arrived. */
export type EventHandler = (type: string, data: string, receivedAt: number) => void;

/** One open `GET /api/sse`, read to the end with fetch (undici). */
export interface StreamReader {
  /** Resolves once the stream's `snapshot` event has arrived. */
  readonly snapshot: Promise<void>;
  /** Resolves when the stream ends, or after `close()`; rejects if reading failed. */
  readonly ended: Promise<void>;
  close(): void;
}

export function openEventStream(url: string, onEvent: EventHandler): StreamReader {
  const controller = new AbortController();
  let gotSnapshot: () => void = () => {};
  let noSnapshot: (error: unknown) => void = () => {};
  const snapshot = new Promise<void>((resolve, reject) => {
    gotSnapshot = resolve;
    noSnapshot = reject;
  });

  const read = async () => {
    const response = await fetch(url, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status !== 200 || response.body === null) {
      throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const receivedAt = performance.now();
      pending += decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n', start)) {
        const block = parseBlock(pending.slice(start, end));
        start = end + 2;
        if (block === undefined) continue;
        if (block.type === 'snapshot') gotSnapshot();
        onEvent(block.type, block.data, receivedAt);
      }
      pending = pending.slice(start);
    }
  };

  const ended = read().then(
    () => noSnapshot(new Error(`${url} ended before its snapshot.`)),
    (error: unknown) => {
      noSnapshot(error);
      // Our own close() aborts the read: that is the normal end.
      if (!controller.signal.aborted) throw error;
    },
  );
  // Whoever waits on `snapshot` sees the error; `ended` carries it too.
  snapshot.catch(() => {});
  return { snapshot, ended, close: () => controller.abort() };
}

/** An SSE block's event type and data; undefined for comments and `retry:` alone. */
function parseBlock(block: string): { type: string; data: string } | undefined {
  let type = 'message';
  let data: string | undefined;
  for (const line of block.split('\n')) {
    if (line.startsWith('event: ')) type = line.slice(7);
    else if (line.startsWith('data: ')) {
      data = data === undefined ? line.slice(6) : `${data}\n${line.slice(6)}`;
    }
  }
  return data === undefined ? undefined : { type, data };
}
