import type { FanOutRow } from './fan-out-table.ts';
import { format, formatTable } from './table.ts';
import type { ScalingSummary } from './scaling-table.ts';
import { notServerBound, type ThroughputRow } from './throughput-table.ts';

/** One of the targets, checked against this run's figures. */
export interface TargetCheck {
  readonly target: string;
  readonly value: number | undefined;
  readonly shown: string;
  /** A server was not the limit when this was measured (see the throughput table's star). */
  readonly notServerBound?: boolean;
  /** The same ratio from server CPU time per request, steadier on a busy machine. */
  readonly byCpu?: number | undefined;
  /** Undefined when the run did not measure it. */
  readonly pass: boolean | undefined;
}

const atLeast = (
  target: string,
  value: number | undefined,
  minimum: number,
  byCpu?: number,
  notServerBound?: boolean,
): TargetCheck => ({
  target,
  value,
  shown: format.ratio(value),
  byCpu,
  notServerBound,
  pass: value === undefined || Number.isNaN(value) ? undefined : value >= minimum,
});

/** The targets of issue 5, as ratios from this one run. */
export function checkTargets(
  throughput: readonly ThroughputRow[],
  fanOut: readonly FanOutRow[],
  scaling: ScalingSummary | undefined,
): TargetCheck[] {
  const row = (scenario: string) => throughput.find((candidate) => candidate.scenario === scenario);
  const against = (
    scenario: string,
    other: 'fastify' | 'bare',
    target: string,
    minimum: number,
  ) => {
    const found = row(scenario);
    if (found === undefined) return atLeast(target, undefined, minimum);
    const [ratio, byCpu] =
      other === 'fastify'
        ? [found.oursToFastify, found.cpuOursToFastify]
        : [found.oursToBare, found.cpuOursToBare];
    return atLeast(target, ratio, minimum, byCpu, notServerBound(found, other));
  };
  const p99Found = fanOut.find((row) => row.key === 'delayP99Ms')?.values.ours;
  const p99 = p99Found === undefined || Number.isNaN(p99Found) ? undefined : p99Found;
  return [
    against('get-list-100', 'fastify', 'GET list (100 items) ≥ 1.0× Fastify', 1.0),
    against('get-list-100', 'bare', 'GET list (100 items) ≥ 0.9× bare node:http', 0.9),
    against('post', 'fastify', 'POST ≥ 0.75× Fastify (aim: 1.0×)', 0.75),
    against('get-one', 'fastify', 'GET one ≥ 0.75× Fastify', 0.75),
    against('put', 'fastify', 'PUT ≥ 0.75× Fastify', 0.75),
    against('delete', 'fastify', 'DELETE ≥ 0.75× Fastify', 0.75),
    {
      target: 'fan-out to 1,000 streams ≤ 50 ms at p99',
      value: p99,
      shown: p99 === undefined ? '—' : `${p99.toFixed(1)} ms`,
      pass: p99 === undefined ? undefined : p99 <= 50,
    },
    atLeast('PUT at 10,000 items within 10% of at 10', scaling?.largeToSmall.put, 0.9),
    atLeast(
      'DELETE at 10,000 items within 10% of at 10',
      scaling?.largeToSmall['post-delete'],
      0.9,
    ),
  ];
}

export function targetsTable(checks: readonly TargetCheck[]): string {
  return formatTable(
    ['target', 'this run', 'result', 'by server CPU per request'],
    checks.map(({ target, shown, pass, byCpu, notServerBound }) => [
      target,
      `${shown}${notServerBound ? '*' : ''}`,
      pass === undefined ? 'not run' : pass ? 'PASS' : 'MISS',
      format.ratio(byCpu),
    ]),
  );
}
