import { EventSource } from 'eventsource';
import { createParser } from 'eventsource-parser';
import { onTestFinished } from 'vitest';
import type { TestService } from './hosts.ts';

/**
 * One thing an event stream sent, as eventsource-parser reads it: an event with its fields as
 * sent, a `retry` field, or a comment.
 */
export type SseBlock =
  | { readonly id?: string; readonly event?: string; readonly data: string }
  | { readonly retry: number }
  | { readonly comment: string };

/** A change or snapshot event with its data parsed. */
export interface SseEvent {
  id: string;
  event: string;
  data: unknown;
}

/** Longest wait for the next block before a test fails instead of hanging. */
const BLOCK_WAIT_MS = 5000;

/** Reads an event stream block by block, as it arrives on the wire. */
export class StreamReader {
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #abort: AbortController;
  readonly #blocks: SseBlock[] = [];
  readonly #parser = createParser({
    onEvent: ({ id, event, data }) => this.#blocks.push({ id, event, data }),
    onRetry: (retry) => this.#blocks.push({ retry }),
    onComment: (comment) => this.#blocks.push({ comment: comment.trim() }),
  });

  constructor(response: Response, abort: AbortController) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    this.#abort = abort;
  }

  /** The next block, comments and `retry` included; undefined once the server ends the stream. */
  async nextBlock(): Promise<SseBlock | undefined> {
    while (this.#blocks.length === 0) {
      const { done, value } = await withDeadline(this.#reader.read());
      if (done) return undefined;
      this.#parser.feed(value);
    }
    return this.#blocks.shift();
  }

  /** The next event, skipping `retry` and comment blocks. */
  async nextEvent(): Promise<SseEvent> {
    for (;;) {
      const block = await this.nextBlock();
      if (block === undefined) throw new Error('the stream ended before another event');
      if ('data' in block) {
        return { id: block.id!, event: block.event!, data: JSON.parse(block.data) };
      }
    }
  }

  /** Leaves as a client does: the connection goes away. */
  close(): void {
    this.#abort.abort();
  }
}

async function withDeadline<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`nothing arrived on the stream within ${BLOCK_WAIT_MS} ms`)),
      BLOCK_WAIT_MS,
    );
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens the list's event stream (or `path`) and checks that it opened. */
export async function openStream(
  service: Pick<TestService, 'fetch' | 'paths'>,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<StreamReader> {
  const abort = new AbortController();
  const response = await service.fetch(options.path ?? service.paths.sse, {
    headers: options.headers,
    signal: abort.signal,
  });
  if (response.status !== 200) {
    throw new Error(`the stream answered ${response.status}: ${await response.text()}`);
  }
  return new StreamReader(response, abort);
}

/** An `EventSource` from the `eventsource` package, talking to the service under test. */
export function eventSourceOn(service: TestService, path = service.paths.sse): EventSource {
  const base = 'http://service.test';
  return new EventSource(new URL(path, base), {
    fetch: (url, init) => {
      const { pathname, search } = new URL(url);
      return service.fetch(pathname + search, init);
    },
  });
}

/** Collects the events of `types` an EventSource receives. */
export function collectEvents(source: EventSource, types: readonly string[]): SseEvent[] {
  const seen: SseEvent[] = [];
  for (const type of types) {
    source.addEventListener(type, (message) => {
      seen.push({ id: message.lastEventId, event: type, data: JSON.parse(message.data) });
    });
  }
  return seen;
}

/** The sequence number at the end of an event id, for checking that ids increase. */
export function sequenceOf(id: string): number {
  return Number(id.slice(id.lastIndexOf('.') + 1));
}

/** Streams opened in a test are closed after it, whatever happened. */
export async function opened(
  service: TestService,
  options?: Parameters<typeof openStream>[1],
): Promise<StreamReader> {
  const stream = await openStream(service, options);
  onTestFinished(() => stream.close());
  return stream;
}

/** The stream's first event, after its `retry` block. */
export async function firstEvent(stream: StreamReader) {
  await stream.nextBlock();
  return stream.nextEvent();
}

/** An ETag's value, which is an event id. */
export const unquoted = (etag: string) => etag.slice(1, -1);

/**
 * An EventSource whose connections the test can cut as a network drop would (an error, not
 * an abort, which EventSource takes as the end), recording the Last-Event-ID each connection
 * was opened with.
 */
export function eventSourceWithCuts(service: TestService, cuts: (() => void)[]) {
  const lastEventIds: (string | undefined)[] = [];
  const source = eventSourceOn({
    ...service,
    fetch: async (path, init) => {
      lastEventIds.push(new Headers(init?.headers).get('last-event-id') ?? undefined);
      const response = await service.fetch(path, init);
      const { body, cut } = cuttable(response.body!);
      cuts.push(cut);
      return new Response(body, response);
    },
  });
  return { source, lastEventIds };
}

function cuttable(original: ReadableStream<Uint8Array>) {
  const reader = original.getReader();
  let stream!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream = controller;
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        // Already cut.
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const cut = () => {
    stream.error(new TypeError('network connection lost'));
    void reader.cancel().catch(() => {});
  };
  return { body, cut };
}
