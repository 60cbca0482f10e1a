import type { ServerChild } from './children.ts';
import { openEventStream } from './sse-client.ts';
import { percentile } from './stats.ts';

export interface FanOutOptions {
  readonly streams: number;
  readonly posts: number;
  readonly concurrency: number;
}

export interface FanOutResult {
  readonly streams: number;
  readonly posts: number;
  /** From the first POST sent to the last `created` event received by the last stream. */
  readonly seconds: number;
  readonly eventsPerSecond: number;
  /** From a POST being sent to the last of the streams receiving its event. */
  readonly delayP50Ms: number;
  readonly delayP99Ms: number;
  /** The server's CPU time over the same span: near `seconds` means the server was the limit. */
  readonly serverCpuMs: number;
  readonly serverCpuMsPer1000: number;
  /** The benchmark's own CPU time over the span: near `seconds` means the client was the limit. */
  readonly clientCpuMs: number;
}

/**
 * Opens `streams` event streams, waits for every snapshot, then creates `posts` items,
 * `concurrency` POSTs at a time, until every stream has received every `created` event.
 */
export async function measureFanOut(
  server: ServerChild,
  { streams, posts, concurrency }: FanOutOptions,
): Promise<FanOutResult> {
  const lastArrival = new Map<string, { count: number; at: number }>();
  const createdPerStream = new Array<number>(streams).fill(0);
  let streamsDone = 0;
  let finishedAt = 0;
  let allDelivered: () => void = () => {};
  const delivered = new Promise<void>((resolve) => (allDelivered = resolve));

  const readers = Array.from({ length: streams }, (_, index) =>
    openEventStream(`${server.url}/api/sse`, (type, data, receivedAt) => {
      if (type !== 'created') return;
      const { id } = JSON.parse(data) as { id: string };
      const arrival = lastArrival.get(id);
      if (arrival === undefined) lastArrival.set(id, { count: 1, at: receivedAt });
      else {
        arrival.count += 1;
        arrival.at = receivedAt;
      }
      createdPerStream[index]! += 1;
      if (createdPerStream[index] === posts && ++streamsDone === streams) {
        finishedAt = receivedAt;
        allDelivered();
      }
    }),
  );
  try {
    await Promise.all(readers.map((reader) => reader.snapshot));
    // A stream that ends now would leave `delivered` waiting: let that win the race instead.
    const endedEarly = new Promise<never>((_, reject) => {
      for (const reader of readers) {
        reader.ended.then(
          () => reject(new Error('An event stream ended before receiving every event.')),
          reject,
        );
      }
    });
    endedEarly.catch(() => {});

    const sentAt = new Map<string, number>();
    let next = 0;
    const cpuBefore = await server.cpu();
    const clientCpuBefore = process.cpuUsage();
    const firstSent = performance.now();
    const poster = async () => {
      while (next < posts) {
        const title = `bench item ${next++}`;
        const sent = performance.now();
        const response = await fetch(`${server.url}/api/todos`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
        });
        if (response.status !== 201) {
          next = posts;
          throw new Error(`POST /api/todos answered ${response.status}: ${await response.text()}`);
        }
        const { id } = (await response.json()) as { id: string };
        sentAt.set(id, sent);
      }
    };
    const posting = Promise.all(Array.from({ length: concurrency }, poster));
    await Promise.race([Promise.all([posting, delivered]), endedEarly]);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const cpuAfter = await server.cpu();

    const delays: number[] = [];
    for (const [id, sent] of sentAt) {
      const arrival = lastArrival.get(id);
      if (arrival?.count !== streams) throw new Error(`Item ${id} reached only some streams.`);
      delays.push(arrival.at - sent);
    }
    const seconds = (finishedAt - firstSent) / 1000;
    const serverCpuMs = cpuAfter.userMs + cpuAfter.systemMs - cpuBefore.userMs - cpuBefore.systemMs;
    return {
      streams,
      posts,
      seconds,
      eventsPerSecond: (streams * posts) / seconds,
      delayP50Ms: percentile(delays, 0.5),
      delayP99Ms: percentile(delays, 0.99),
      serverCpuMs,
      serverCpuMsPer1000: serverCpuMs / ((streams * posts) / 1000),
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
    };
  } finally {
    for (const reader of readers) reader.close();
    await Promise.allSettled(readers.map((reader) => reader.ended));
  }
}
