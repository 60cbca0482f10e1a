import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { ServerChild } from './children.ts';

/**
 * Latencies in Node's HDR histogram, in whole microseconds from 1 up: three significant figures
 * in a few kilobytes however many requests a run makes.
 */
export const latencies = () => createHistogram();
export const recordMs = (histogram: RecordableHistogram, ms: number) =>
  histogram.record(Math.max(1, Math.round(ms * 1000)));
/** The latency below which fraction `p` of the samples fall, in ms. */
export const msAt = (histogram: RecordableHistogram, p: number) =>
  histogram.count === 0 ? Number.NaN : histogram.percentile(p * 100) / 1000;

/** Runs `phase`, or rejects once `seconds` have passed, naming `label`. */
export async function withinSeconds<T>(label: string, seconds: number, phase: () => Promise<T>) {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    const message = `${label} did not finish within ${seconds} s; stopping.`;
    timer = setTimeout(() => reject(new Error(message)), seconds * 1000);
  });
  try {
    return await Promise.race([phase(), overrun]);
  } finally {
    clearTimeout(timer);
  }
}

/** The requests of one scenario, and what a correct answer to them looks like. */
export interface LoadPlan {
  readonly requests: autocannon.Request[];
  /** The statuses a correct answer has; any other fails the run. */
  readonly expect: readonly number[];
  /** Each answer is at least this long (bytes), so a list that was never filled shows. */
  readonly minBytes?: number;
  /** How many requests the prepared state allows in all (ids to delete, room in the list). */
  readonly maxRequests?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  /** The server's CPU time per request: what it costs, whoever was the limit. */
  readonly serverCpuUsPerRequest: number;
  /** Near 100 when the server was the limit; well below, the load generator or machine was. */
  readonly serverBusyPercent: number;
}

/**
 * Puts `plan`'s load on `server` with autocannon for `seconds`, at most `maxRequests`
 * requests, and fails when any answer is not what `plan` expects.
 */
export async function applyLoad(
  server: ServerChild,
  plan: LoadPlan,
  { connections, seconds }: { readonly connections: number; readonly seconds: number },
  maxRequests?: number,
): Promise<LoadResult> {
  if (maxRequests !== undefined && maxRequests < connections) {
    throw new Error(`Only ${maxRequests} requests are left to make; lower --duration.`);
  }
  // autocannon's own histogram keeps whole milliseconds: too coarse for answers under 1 ms.
  const latency = latencies();
  const serverBefore = await server.cpu();
  const instance = autocannon({
    url: server.url,
    connections,
    duration: seconds,
    timeout: 10,
    requests: plan.requests,
    ...(maxRequests !== undefined && { maxOverallRequests: maxRequests }),
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
    recordMs(latency, ms),
  );
  const result = await withinSeconds('the load', seconds + 30, async () => instance).catch(
    (error: unknown) => {
      instance.stop();
      throw error;
    },
  );

  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count]),
  );
  const unexpected = Object.keys(statuses).filter((status) => !plan.expect.includes(+status));
  if (result.errors > 0 || unexpected.length > 0 || latency.count === 0) {
    throw new Error(
      `expected only ${plan.expect.join('/')}; got statuses ${JSON.stringify(statuses)}, ` +
        `${result.errors} connection errors (${result.timeouts} timeouts)`,
    );
  }
  const bytesPerResponse = result.throughput.total / latency.count;
  if (plan.minBytes !== undefined && bytesPerResponse < plan.minBytes) {
    throw new Error(`answers of ${Math.round(bytesPerResponse)} bytes, not ${plan.minBytes}`);
  }

  const serverMs = (await server.cpu()) - serverBefore;
  return {
    requests: latency.count,
    seconds: result.duration,
    requestsPerSecond: latency.count / result.duration,
    latencyP50Ms: msAt(latency, 0.5),
    latencyP99Ms: msAt(latency, 0.99),
    serverCpuUsPerRequest: (serverMs * 1000) / latency.count,
    serverBusyPercent: serverMs / 10 / result.duration,
  };
}
