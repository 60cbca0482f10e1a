import { sleep } from './bounds.ts';
import type { MemorySample } from './child-ipc.ts';
import type { ServerChild } from './children.ts';
import { openEventStream, type StreamReader } from './sse-client.ts';

export interface MemoryOptions {
  readonly streams: number;
  /** Streams being opened at once; a burst of thousands overflows the listen backlog. */
  readonly concurrency: number;
}

export interface MemoryResult {
  readonly streams: number;
  /** V8 heap plus memory outside it (which includes array buffers), per open stream. */
  readonly heapExternalPerStream: number;
  readonly rssPerStream: number;
  /** What stays above the starting point once every stream is closed, per stream. */
  readonly heapExternalLeftPerStream: number;
  readonly rssLeftPerStream: number;
  /** The streams the server still counted as open after they were all closed. */
  readonly openAfterClose: number;
  readonly samples: {
    readonly before: MemorySample;
    readonly open: MemorySample;
    readonly closed: MemorySample;
  };
}

const heapAndExternal = (sample: MemorySample) => sample.heapUsed + sample.external;

/**
 * Measures the server after GC, opens `streams` streams that each read their snapshot,
 * measures again, closes them all and measures once more after they settle.
 */
export async function measureMemory(
  server: ServerChild,
  { streams, concurrency }: MemoryOptions,
): Promise<MemoryResult> {
  const before = await server.memory();
  const readers: StreamReader[] = [];
  try {
    while (readers.length < streams) {
      const batch = Array.from({ length: Math.min(concurrency, streams - readers.length) }, () =>
        openEventStream(`${server.url}/api/sse`, () => {}),
      );
      readers.push(...batch);
      await Promise.all(batch.map((reader) => reader.snapshot));
    }
    const open = await server.memory();
    if (open.openStreams !== streams) {
      throw new Error(`The server counts ${open.openStreams} open streams, not ${streams}.`);
    }

    for (const reader of readers) reader.close();
    await Promise.allSettled(readers.map((reader) => reader.ended));
    // The server hears of each close a moment later; give it up to 5 s to forget them all.
    let closed = await server.memory();
    for (let waited = 0; closed.openStreams > 0 && waited < 5000; waited += 250) {
      await sleep(250);
      closed = await server.memory();
    }
    await sleep(500);
    closed = await server.memory();

    const perStream = (bytes: number) => bytes / streams;
    return {
      streams,
      heapExternalPerStream: perStream(heapAndExternal(open) - heapAndExternal(before)),
      rssPerStream: perStream(open.rss - before.rss),
      heapExternalLeftPerStream: perStream(heapAndExternal(closed) - heapAndExternal(before)),
      rssLeftPerStream: perStream(closed.rss - before.rss),
      openAfterClose: closed.openStreams,
      samples: { before, open, closed },
    };
  } finally {
    for (const reader of readers) reader.close();
  }
}
