import autocannon from 'autocannon';
import { withinSeconds } from './bounds.ts';
import type { ServerChild } from './children.ts';
import { latencies, msAt, recordMs } from './latency.ts';

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

export interface LoadSettings {
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly latencyMeanMs: number;
  readonly bytesPerResponse: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** The server's CPU time per request: what it costs, whoever was the limit. */
  readonly serverCpuUsPerRequest: number;
  /** Near 100 when the server was the limit; well below, the load generator or machine was. */
  readonly serverBusyPercent: number;
  readonly clientBusyPercent: number;
  /** The run ended before its time because `maxRequests` ran out. */
  readonly endedEarly: boolean;
}

/**
 * Puts `plan`'s load on `server` with autocannon for `seconds`, at most `maxRequests`
 * requests, and fails when any answer is not what `plan` expects.
 */
export async function applyLoad(
  server: ServerChild,
  plan: LoadPlan,
  { connections, seconds }: LoadSettings,
  maxRequests?: number,
): Promise<LoadResult> {
  if (maxRequests !== undefined && maxRequests < connections) {
    throw new Error(`Only ${maxRequests} requests are left to make; lower --duration.`);
  }
  // autocannon's own histogram keeps whole milliseconds: too coarse for answers under 1 ms.
  const latency = latencies();
  const serverBefore = await server.cpu();
  const clientBefore = process.cpuUsage();
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
  const client = process.cpuUsage(clientBefore);
  const serverAfter = await server.cpu();

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
    throw new Error(
      `answers of ${Math.round(bytesPerResponse)} bytes, fewer than ${plan.minBytes}`,
    );
  }

  const wallMs = result.duration * 1000;
  const serverMs =
    serverAfter.userMs + serverAfter.systemMs - serverBefore.userMs - serverBefore.systemMs;
  return {
    requests: latency.count,
    seconds: result.duration,
    requestsPerSecond: latency.count / result.duration,
    latencyP50Ms: msAt(latency, 0.5),
    latencyP99Ms: msAt(latency, 0.99),
    latencyMeanMs: latency.mean / 1000,
    bytesPerResponse,
    statuses,
    serverCpuUsPerRequest: (serverMs * 1000) / latency.count,
    serverBusyPercent: (100 * serverMs) / wallMs,
    clientBusyPercent: (100 * (client.user + client.system)) / 1000 / wallMs,
    endedEarly: result.duration < seconds - 0.2,
  };
}
