import { setTimeout as sleep } from 'node:timers/promises';
import type { MemorySample } from './child-ipc.ts';
import type { ServerChild } from './children.ts';
import { latencies, msAt, recordMs, withinSeconds } from './load.ts';
import { post } from './scenarios.ts';
import { openCountingStream, type CountingStream } from './sse-client.ts';

export interface FanOutSettings {
  readonly streams: number;
  readonly changes: number;
  /** Changes made first and not timed, so neither server is measured while compiling. */
  readonly warmUpChanges: number;
}

export interface FanOutResult {
  /** From each change's POST being sent to the first stream receiving its event. */
  readonly firstP50Ms: number;
  readonly firstP99Ms: number;
  /** From each change's POST being sent to the last stream receiving its event. */
  readonly delayP50Ms: number;
  readonly delayP99Ms: number;
  readonly delayMaxMs: number;
  /** V8 heap plus memory outside it (array buffers included), per open stream. */
  readonly heapExternalPerStream: number;
  readonly rssPerStream: number;
  /** Streams the server still counted as open once every client had gone. */
  readonly heldAfterClose: number;
  readonly serverCpuMsPerChange: number;
  /** This process's CPU time per change: reading a thousand sockets is part of each delay. */
  readonly clientCpuMsPerChange: number;
}

/** Streams opened at once; a burst of thousands would overflow the listen backlog. */
const OPEN_BATCH = 50;
const CHANGE_TIMEOUT_SECONDS = 10;

/**
 * Opens `streams` event streams and measures the server's memory, then makes `changes`
 * changes one at a time: each POST is sent only once every stream has the previous event.
 */
export async function measureFanOut(
  server: ServerChild,
  { streams, changes, warmUpChanges }: FanOutSettings,
): Promise<FanOutResult> {
  const total = warmUpChanges + changes;
  const reached = new Int32Array(total + 2);
  const firstAt = new Float64Array(total + 2);
  let waiting: { count: number; resolve: (at: number) => void } | undefined;
  const onCreated = (count: number, receivedAt: number) => {
    const streamsWithIt = ++reached[count]!;
    if (streamsWithIt === 1) firstAt[count] = receivedAt;
    if (streamsWithIt === streams && waiting?.count === count) waiting.resolve(receivedAt);
  };

  const before = await server.memory();
  const url = new URL('/api/sse', server.url);
  const clients: CountingStream[] = [];
  const change = async () => {
    const answer = await fetch(new URL(post.path, server.url), post);
    await answer.arrayBuffer();
    return answer.status;
  };
  try {
    while (clients.length < streams) {
      const batch = Array.from({ length: Math.min(OPEN_BATCH, streams - clients.length) }, () =>
        openCountingStream(url, onCreated),
      );
      clients.push(...batch);
      await Promise.all(batch.map((client) => client.opened));
    }
    const open = await server.memory();
    if (open.openStreams !== streams) {
      throw new Error(`the server counts ${open.openStreams} open streams, not ${streams}`);
    }

    const [first, last] = [latencies(), latencies()];
    const cpuBefore = await server.cpu();
    const clientBefore = process.cpuUsage();
    for (let count = 1; count <= total; count += 1) {
      const delivered = new Promise<number>((resolve) => (waiting = { count, resolve }));
      const sentAt = performance.now();
      const status = await withinSeconds(
        `change ${count}`,
        CHANGE_TIMEOUT_SECONDS,
        async () => (await Promise.all([change(), delivered]))[0],
      ).catch((error: unknown) => {
        const early = clients.filter((client) => client.endedEarly).length;
        const got = reached[count];
        throw new Error(`${String(error)} (${got} of ${streams} streams had it; ${early} ended)`);
      });
      if (status !== 201) throw new Error(`POST /api/todos answered ${status}`);
      if (count > warmUpChanges) {
        recordMs(last, (await delivered) - sentAt);
        recordMs(first, firstAt[count]! - sentAt);
      }
    }
    const client = process.cpuUsage(clientBefore);
    const cpuAfter = await server.cpu();

    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.closed));
    // The server hears of each close a moment later; give it up to 5 s to forget them all.
    let closed = await server.memory();
    for (let waited = 0; closed.openStreams > 0 && waited < 5000; waited += 100) {
      await sleep(100);
      closed = await server.memory();
    }

    const heapAndExternal = (sample: MemorySample) => sample.heapUsed + sample.external;
    return {
      firstP50Ms: msAt(first, 0.5),
      firstP99Ms: msAt(first, 0.99),
      delayP50Ms: msAt(last, 0.5),
      delayP99Ms: msAt(last, 0.99),
      delayMaxMs: last.max / 1000,
      heapExternalPerStream: (heapAndExternal(open) - heapAndExternal(before)) / streams,
      rssPerStream: (open.rss - before.rss) / streams,
      heldAfterClose: closed.openStreams,
      serverCpuMsPerChange: (cpuAfter - cpuBefore) / total,
      clientCpuMsPerChange: (client.user + client.system) / 1000 / total,
    };
  } finally {
    for (const client of clients) client.close();
  }
}
