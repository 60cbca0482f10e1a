import type { FanOutRow } from './fan-out-table.ts';
import type { ListsSummary } from './lists-table.ts';
import type { ScalingSummary } from './scaling-table.ts';
import type { StorageWritesRow } from './storage-writes-table.ts';
import { format, formatTable } from './format.ts';
import { notServerBound, type ThroughputRow } from './throughput-table.ts';

/** One of the targets, checked against this run's figures. */
export interface TargetCheck {
  readonly target: string;
  /** What the target is stated in: a ratio of req/s, a ratio of sizes, or milliseconds. */
  readonly value: number | undefined;
  readonly shown: string;
  /** For ratios between servers, the same ratio from server CPU time per request. */
  readonly byCpu?: number | undefined;
  /** What decided `pass`: req/s when both servers set the pace, else CPU time per request. */
  readonly judgedBy?: 'req/s' | 'CPU';
  /** Undefined when the run did not measure it. */
  readonly pass: boolean | undefined;
}

const measured = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? undefined : value;

const atLeast = (target: string, value: number | undefined, minimum: number): TargetCheck => {
  const found = measured(value);
  return {
    target,
    value: found,
    shown: format.ratio(found),
    pass: found === undefined ? undefined : found >= minimum,
  };
};

/**
 * A ratio of ours to a baseline. The issue states it in req/s with each server the limit;
 * where one was not (autocannon, on one core, cannot keep a fast baseline busy), CPU time
 * per request stands in for it: for one Node thread, capacity is one over it. The stand-in
 * runs somewhat high for a server below full load, which wakes up more often per request.
 */
function against(
  row: ThroughputRow | undefined,
  other: 'fastify' | 'bare',
  target: string,
  minimum: number,
): TargetCheck {
  if (row === undefined) return atLeast(target, undefined, minimum);
  const [ratio, byCpu] =
    other === 'fastify'
      ? [row.oursToFastify, row.cpuOursToFastify]
      : [row.oursToBare, row.cpuOursToBare];
  const judgedBy = notServerBound(row, other) ? 'CPU' : 'req/s';
  const judged = measured(judgedBy === 'CPU' ? byCpu : ratio);
  return {
    target,
    value: ratio,
    shown: `${format.ratio(ratio)}${judgedBy === 'CPU' ? '*' : ''}`,
    byCpu,
    judgedBy,
    pass: judged === undefined ? undefined : judged >= minimum,
  };
}

/** Our code's CPU time per request beyond the adapter's with a trivial handler, at most. */
function beyondAdapter(row: ThroughputRow | undefined, target: string, maximum: number) {
  const found = measured(row?.oursBeyondAdapterUs);
  return {
    target,
    value: found,
    shown: found === undefined ? '—' : `${found.toFixed(1)} µs`,
    judgedBy: 'CPU',
    pass: found === undefined ? undefined : found <= maximum,
  } satisfies TargetCheck;
}

/** The targets, as ratios from this one run. */
export function checkTargets(
  throughput: readonly ThroughputRow[],
  fanOut: readonly FanOutRow[],
  scaling: ScalingSummary | undefined,
  lists: ListsSummary | undefined,
  storage: readonly StorageWritesRow[] | undefined,
): TargetCheck[] {
  const listMemory = measured(lists?.memoryAboveEmpty);
  const row = (scenario: string) => throughput.find((candidate) => candidate.scenario === scenario);
  const p99 = measured(fanOut.find((candidate) => candidate.key === 'delayP99Ms')?.values.ours);
  return [
    against(row('get-list-100'), 'fastify', 'GET list (100 items) ≥ 1.5× Fastify', 1.5),
    against(row('get-list-10k'), 'fastify', 'GET list (10,000 items) ≥ 2× Fastify', 2),
    against(row('post'), 'fastify', 'POST ≥ 0.7× Fastify', 0.7),
    against(row('put'), 'fastify', 'PUT ≥ 0.7× Fastify', 0.7),
    against(row('delete'), 'fastify', 'DELETE ≥ 0.7× Fastify', 0.7),
    against(row('get-one'), 'fastify', 'GET one ≥ 0.85× Fastify', 0.85),
    beyondAdapter(row('get-one'), 'GET one: ours beyond the adapter ≤ 1.5 µs', 1.5),
    {
      target: 'fan-out to 10,000 streams ≤ 50 ms at p99',
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
    atLeast(
      'writes over 100 lists no more than 10% slower than over 1',
      lists?.toOneList[100],
      0.9,
    ),
    atLeast(
      'writes over 10,000 lists no more than 10% slower than over 1',
      lists?.toOneList[10_000],
      0.9,
    ),
    {
      ...atLeast(
        'writes with storage on, 50 connections, ≥ 0.7× the memory store',
        storage?.find((row) => row.connections === 50)?.sqliteToMemory,
        0.7,
      ),
      byCpu: storage?.find((row) => row.connections === 50)?.sqliteToMemoryByCpu,
    },
    {
      target: '10,000 lists of one item each < 50 MiB of heap above an empty service',
      value: listMemory,
      shown: format.mib(listMemory ?? NaN),
      pass: listMemory === undefined ? undefined : listMemory < 50 * 1024 * 1024,
    },
  ];
}

export function targetsTable(checks: readonly TargetCheck[]): string {
  const table = formatTable(
    ['target', 'this run', 'by CPU', 'result', 'judged by'],
    checks.map(({ target, shown, byCpu, pass, judgedBy }) => [
      target,
      shown,
      format.ratio(byCpu),
      pass === undefined ? 'not run' : pass ? 'PASS' : 'MISS',
      pass === undefined ? '' : (judgedBy ?? ''),
    ]),
  );
  return (
    `${table}\n\nA ratio between servers is judged in req/s where both servers were the limit, ` +
    `else (*) by server CPU time per request, which runs somewhat high for a server below ` +
    `full load (usually a baseline autocannon cannot keep busy, so it flatters ours a little).`
  );
}
