import { SERVER_NAMES, type ServerKind } from './children.ts';
import type { FanOutResult, FanOutSettings } from './fan-out.ts';
import { format, formatTable } from './format.ts';
import { median, medianRatio } from './stats.ts';

export interface FanOutRun {
  readonly round: number;
  readonly kind: ServerKind;
  readonly result: FanOutResult;
}

export interface FanOutRow {
  /** The result's field the row shows. */
  readonly key: keyof FanOutResult;
  readonly metric: string;
  /** Medians over the rounds. */
  readonly values: Partial<Record<ServerKind, number>>;
  /** ours / bare, the median of each round's ratio. */
  readonly oursToBare: number | undefined;
}

type NumberKey = {
  [K in keyof FanOutResult]: FanOutResult[K] extends number ? K : never;
}[keyof FanOutResult];

interface Metric {
  readonly key: NumberKey;
  readonly label: string;
  readonly format: (value: number) => string;
  /** Whether ours / bare says anything: not for the client's cost or a count of leaks. */
  readonly ratio: boolean;
}

const metric = (key: NumberKey, label: string, shown = format.fixed(1), ratio = true): Metric => ({
  key,
  label,
  format: shown,
  ratio,
});

const METRICS: readonly Metric[] = [
  metric('firstP50Ms', 'change sent → first stream has it, p50 (ms)'),
  metric('firstP99Ms', 'change sent → first stream has it, p99 (ms)'),
  metric('delayP50Ms', 'change sent → last stream has it, p50 (ms)'),
  metric('delayP99Ms', 'change sent → last stream has it, p99 (ms)'),
  metric('delayMaxMs', 'change sent → last stream has it, max (ms)'),
  metric('serverCpuMsPerChange', 'server CPU per change (ms)', format.fixed(2)),
  metric(
    'clientCpuMsPerChange',
    'client CPU per change, every socket read (ms)',
    format.fixed(2),
    false,
  ),
  metric('heapExternalPerStream', 'memory per open stream, heap + external (KiB)', format.kib),
  metric('rssPerStream', 'memory per open stream, rss (KiB)', format.kib),
  metric('heldAfterClose', 'streams still held after all closed', format.count, false),
];

export function summariseFanOut(runs: readonly FanOutRun[], kinds: readonly ServerKind[]) {
  return METRICS.map(({ key, label, ratio }): FanOutRow => {
    const value = (run: FanOutRun) => run.result[key];
    const values: Partial<Record<ServerKind, number>> = {};
    for (const kind of kinds) {
      values[kind] = median(runs.filter((run) => run.kind === kind).map(value));
    }
    const oursToBare = ratio
      ? medianRatio(
          runs,
          (run) => run.kind === 'ours',
          (run) => run.kind === 'bare',
          value,
        )
      : undefined;
    return { key, metric: label, values, oursToBare };
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
      ...kinds.map((kind) => METRICS[index]!.format(row.values[kind] ?? NaN)),
      format.ratio(row.oursToBare),
    ]),
  );
}
