import type { ServerKind } from './children.ts';
import type { FanOutResult } from './fan-out.ts';
import type { MemoryResult } from './memory.ts';
import { median } from './stats.ts';

/** What one server gave in one round. */
export interface RunResult {
  readonly kind: ServerKind;
  readonly round: number;
  readonly fanOut: FanOutResult;
  readonly memory: MemoryResult;
}

export interface SummaryRow {
  readonly metric: string;
  /** Medians over the rounds. */
  readonly ours: number;
  readonly bare: number;
  /** ours / bare; undefined where a ratio says nothing (values near zero). */
  readonly ratio: number | undefined;
  readonly text: { readonly ours: string; readonly bare: string; readonly ratio: string };
}

interface Metric {
  readonly name: string;
  readonly value: (run: RunResult) => number;
  readonly format: (value: number) => string;
  readonly ratio: boolean;
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed = (digits: number) => (value: number) => value.toFixed(digits);
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
/** CPU time as a share of the fan-out's wall time: near 100 means that process was the limit. */
const busy = (cpuMs: number, run: RunResult) => (100 * cpuMs) / (run.fanOut.seconds * 1000);

const metric = (
  name: string,
  format: (value: number) => string,
  value: (run: RunResult) => number,
  ratio = true,
): Metric => ({ name, format, value, ratio });

const METRICS: readonly Metric[] = [
  metric('events delivered per second (100 streams)', count, (r) => r.fanOut.eventsPerSecond),
  metric('1,000 POSTs fanned out to 100 streams (s)', fixed(2), (r) => r.fanOut.seconds),
  metric('POST sent to last stream got it, p50 (ms)', fixed(1), (r) => r.fanOut.delayP50Ms),
  metric('POST sent to last stream got it, p99 (ms)', fixed(1), (r) => r.fanOut.delayP99Ms),
  metric('server CPU per 1,000 deliveries (ms)', fixed(2), (r) => r.fanOut.serverCpuMsPer1000),
  metric('server busy in fan-out (%)', fixed(0), (r) => busy(r.fanOut.serverCpuMs, r), false),
  metric('client busy in fan-out (%)', fixed(0), (r) => busy(r.fanOut.clientCpuMs, r), false),
  metric('memory per stream, heap + external (KiB)', kib, (r) => r.memory.heapExternalPerStream),
  metric('memory per stream, rss (KiB)', kib, (r) => r.memory.rssPerStream),
  metric('left after close (KiB/stream)', kib, (r) => r.memory.heapExternalLeftPerStream, false),
  metric('streams still held after close', count, (r) => r.memory.openAfterClose, false),
];

/** Each metric's median for both servers over all rounds, and their ratio. */
export function summarise(runs: readonly RunResult[]): SummaryRow[] {
  return METRICS.map(({ name, value, format, ratio: hasRatio }) => {
    const ours = median(runs.filter((run) => run.kind === 'ours').map(value));
    const bare = median(runs.filter((run) => run.kind === 'bare').map(value));
    const ratio = hasRatio && Math.abs(bare) > 1e-9 ? ours / bare : undefined;
    return {
      metric: name,
      ours,
      bare,
      ratio,
      text: {
        ours: format(ours),
        bare: format(bare),
        ratio: ratio === undefined ? '—' : `${ratio.toFixed(2)}×`,
      },
    };
  });
}

/** A Markdown table, padded so it reads in a terminal too. */
export function formatTable(rows: readonly SummaryRow[]): string {
  const lines = [
    ['metric', 'ours', 'bare node:http', 'ours / bare'],
    ...rows.map((row) => [row.metric, row.text.ours, row.text.bare, row.text.ratio]),
  ];
  const widths = lines[0]!.map((_, column) =>
    Math.max(...lines.map((line) => line[column]!.length)),
  );
  const render = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  const rule = `| ${widths.map((width, column) => (column === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`;
  return [render(lines[0]!), rule, ...lines.slice(1).map(render)].join('\n');
}
