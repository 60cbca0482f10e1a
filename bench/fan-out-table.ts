import { SERVER_NAMES, type ServerKind } from './children.ts';
import type { FanOutResult, FanOutSettings } from './fan-out.ts';
import { format, formatTable } from './table.ts';
import { median, medianRatio } from './stats.ts';

export interface FanOutRun {
  readonly round: number;
  readonly kind: ServerKind;
  readonly result: FanOutResult;
}

export interface FanOutRow {
  readonly metric: string;
  /** Medians over the rounds. */
  readonly values: Partial<Record<ServerKind, number>>;
  /** ours / bare, the median of each round's ratio. */
  readonly oursToBare: number | undefined;
}

const METRICS: readonly [string, (result: FanOutResult) => number, (value: number) => string][] = [
  ['change sent → last stream has it, p50 (ms)', (r) => r.delayP50Ms, format.fixed(1)],
  ['change sent → last stream has it, p99 (ms)', (r) => r.delayP99Ms, format.fixed(1)],
  ['change sent → last stream has it, max (ms)', (r) => r.delayMaxMs, format.fixed(1)],
  ['server CPU per change (ms)', (r) => r.serverCpuMsPerChange, format.fixed(2)],
  [
    'client CPU per change, 1,000 sockets read (ms)',
    (r) => r.clientCpuMsPerChange,
    format.fixed(2),
  ],
  ['memory per open stream, heap + external (KiB)', (r) => r.heapExternalPerStream, format.kib],
  ['memory per open stream, rss (KiB)', (r) => r.rssPerStream, format.kib],
  ['streams still held after all closed', (r) => r.heldAfterClose, format.count],
];

export function summariseFanOut(runs: readonly FanOutRun[], kinds: readonly ServerKind[]) {
  return METRICS.map(([metric, value]): FanOutRow => {
    const values: Partial<Record<ServerKind, number>> = {};
    for (const kind of kinds) {
      values[kind] = median(
        runs.filter((run) => run.kind === kind).map((run) => value(run.result)),
      );
    }
    const of = (run: FanOutRun) => value(run.result);
    const oursToBare = medianRatio(
      runs,
      (run) => run.kind === 'ours',
      (run) => run.kind === 'bare',
      of,
    );
    const hasRatio = !metric.startsWith('streams') && !metric.startsWith('client');
    return { metric, values, oursToBare: hasRatio ? oursToBare : undefined };
  });
}

export function fanOutTable(
  rows: readonly FanOutRow[],
  kinds: readonly ServerKind[],
  { streams, changes }: FanOutSettings,
) {
  const title = `${streams.toLocaleString('en-US')} streams, ${changes} changes one at a time`;
  return formatTable(
    [title, ...kinds.map((kind) => SERVER_NAMES[kind]), 'ours / bare'],
    rows.map((row, index) => [
      row.metric,
      ...kinds.map((kind) => METRICS[index]![2](row.values[kind] ?? NaN)),
      format.ratio(row.oursToBare),
    ]),
  );
}
