import { SERVER_NAMES, type ServerKind } from './children.ts';
import { format, formatTable } from './format.ts';
import type { Scenario } from './scenarios.ts';
import { median, medianDifference, medianRatio } from './stats.ts';
import type { ThroughputRun } from './throughput.ts';

/** One server's figures in one scenario: medians over the rounds. */
export interface ServerFigures {
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly serverCpuUsPerRequest: number;
  readonly serverBusyPercent: number;
}

export interface ThroughputRow {
  readonly scenario: string;
  readonly label: string;
  readonly servers: Partial<Record<ServerKind, ServerFigures>>;
  /** Medians over rounds of each round's ratio of requests per second. */
  readonly oursToFastify: number | undefined;
  readonly oursToBare: number | undefined;
  /** The same, of server CPU time per request (lower is better for ours, so other / ours). */
  readonly cpuOursToFastify: number | undefined;
  readonly cpuOursToBare: number | undefined;
  /** Our code's share: ours' CPU time per request less the trivial handler's, in µs. */
  readonly oursBeyondAdapterUs: number | undefined;
  /** The same less the trivial handler's that writes our log line: our share but the log's. */
  readonly oursBeyondLoggingAdapterUs: number | undefined;
}

export function summariseThroughput(
  runs: readonly ThroughputRun[],
  scenarios: readonly Scenario[],
  kinds: readonly ServerKind[],
): ThroughputRow[] {
  return scenarios.map(({ id, label }) => {
    const of = runs.filter((run) => run.scenario === id);
    const servers: Partial<Record<ServerKind, ServerFigures>> = {};
    for (const kind of kinds) {
      const results = of.filter((run) => run.kind === kind).map((run) => run.result);
      servers[kind] = {
        requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
        latencyP50Ms: median(results.map((result) => result.latencyP50Ms)),
        latencyP99Ms: median(results.map((result) => result.latencyP99Ms)),
        serverCpuUsPerRequest: median(results.map((result) => result.serverCpuUsPerRequest)),
        serverBusyPercent: median(results.map((result) => result.serverBusyPercent)),
      };
    }
    const ratio = (other: ServerKind, value: (run: ThroughputRun) => number) =>
      medianRatio(
        of,
        (run) => run.kind === 'ours',
        (run) => run.kind === other,
        value,
      );
    const beyond = (other: ServerKind) =>
      medianDifference(
        of,
        (run) => run.kind === 'ours',
        (run) => run.kind === other,
        (run) => run.result.serverCpuUsPerRequest,
      );
    const rate = (run: ThroughputRun) => run.result.requestsPerSecond;
    const speed = (run: ThroughputRun) => 1 / run.result.serverCpuUsPerRequest;
    return {
      scenario: id,
      label,
      servers,
      oursToFastify: ratio('fastify', rate),
      oursToBare: ratio('bare', rate),
      cpuOursToFastify: ratio('fastify', speed),
      cpuOursToBare: ratio('bare', speed),
      oursBeyondAdapterUs: beyond('adapter'),
      oursBeyondLoggingAdapterUs: beyond('adapter-log'),
    };
  });
}

const figures = (row: ThroughputRow, kind: ServerKind) => row.servers[kind];

/** Below this share of its core a server was not the limit: the load generator was. */
const SATURATED_PERCENT = 80;

/** Whether ours or `other` used less than SATURATED_PERCENT of its core in this scenario. */
export function notServerBound(row: ThroughputRow, other: ServerKind): boolean {
  const busy = (kind: ServerKind) => figures(row, kind)?.serverBusyPercent ?? 100;
  return Math.min(busy('ours'), busy(other)) < SATURATED_PERCENT;
}

/** A ratio of requests per second, starred when a server did not set the pace. */
const paceRatio = (row: ThroughputRow, other: ServerKind, ratio: number | undefined) =>
  `${format.ratio(ratio)}${ratio !== undefined && notServerBound(row, other) ? '*' : ''}`;

/** Requests per second and latency per server, and ours against each baseline. */
export function throughputTable(rows: readonly ThroughputRow[], kinds: readonly ServerKind[]) {
  const header = ['scenario'];
  for (const kind of kinds) header.push(`${SERVER_NAMES[kind]} req/s`, 'p50 / p99 ms');
  header.push('ours / Fastify', 'ours / bare');
  return formatTable(
    header,
    rows.map((row) => [
      row.label,
      ...kinds.flatMap((kind) => {
        const server = figures(row, kind);
        return server === undefined
          ? ['—', '—']
          : [
              format.count(server.requestsPerSecond),
              `${format.fixed(1)(server.latencyP50Ms)} / ${format.fixed(1)(server.latencyP99Ms)}`,
            ];
      }),
      paceRatio(row, 'fastify', row.oursToFastify),
      paceRatio(row, 'bare', row.oursToBare),
    ]),
  );
}

/** Server CPU time per request, which the load generator's own limits do not blur. */
export function cpuTable(rows: readonly ThroughputRow[], kinds: readonly ServerKind[]) {
  return formatTable(
    [
      'server CPU per request (µs)',
      ...kinds.map((kind) => SERVER_NAMES[kind]),
      'Fastify / ours',
      'bare / ours',
      'ours − adapter (µs)',
      'ours − adapter with log line (µs)',
    ],
    rows.map((row) => [
      row.label,
      ...kinds.map((kind) => format.fixed(1)(figures(row, kind)?.serverCpuUsPerRequest ?? NaN)),
      format.ratio(row.cpuOursToFastify),
      format.ratio(row.cpuOursToBare),
      format.fixed(1)(row.oursBeyondAdapterUs ?? NaN),
      format.fixed(1)(row.oursBeyondLoggingAdapterUs ?? NaN),
    ]),
  );
}

/** The median share of its core each server used while measured, and what a star means. */
export function busyNote(runs: readonly ThroughputRun[], kinds: readonly ServerKind[]): string {
  const shares = kinds.map((kind) => {
    const busy = median(
      runs.filter((run) => run.kind === kind).map((run) => run.result.serverBusyPercent),
    );
    return `${SERVER_NAMES[kind]} ${format.fixed(0)(busy)}%`;
  });
  return (
    `Servers busy while measured (median share of their core): ${shares.join(', ')}. ` +
    `* One of the two servers used less than ${SATURATED_PERCENT}% of its core: autocannon, on ` +
    `one core, or the machine set the pace, not that server, so the ratio is not the servers' ` +
    `own. The server CPU time per request below does not depend on who set the pace.`
  );
}
