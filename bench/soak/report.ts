import { cpus, loadavg } from 'node:os';
import type { MemorySample } from '../child-ipc.ts';
import { format, formatTable } from '../format.ts';
import { maxMs, msAt } from '../latency.ts';
import type { Failures } from './failures.ts';
import type { SoakOptions } from './options.ts';
import type { PhaseResult } from './phase.ts';

export interface SoakFigures {
  readonly options: SoakOptions;
  readonly warmUp: PhaseResult;
  readonly measured: PhaseResult | undefined;
  readonly heap: { readonly before: MemorySample; readonly after: MemorySample | undefined };
  readonly heapBound: number;
  readonly heapTrend: readonly number[];
  readonly openStreamsAtEnd: number | undefined;
  /** CPU time over the measured phase, as a share of one core. */
  readonly busy: { readonly service: number; readonly soak: number } | undefined;
  readonly load: { readonly start: number; readonly end: number };
  readonly failures: Failures;
}

const KIND_ORDER = ['list', 'get', 'create', 'update', 'update (If-Match)', 'delete'];
/** Known kinds in KIND_ORDER, the client's mistakes after them. */
const rank = (kind: string) =>
  KIND_ORDER.includes(kind) ? KIND_ORDER.indexOf(kind) : KIND_ORDER.length;
const row = (label: string, text: string) => `${label.padEnd(18)} ${text}`;
const { count, mib, ms, seconds, signedMib } = format;

export const loadNow = () => loadavg()[0]!;

/** Requests served by kind, with their latencies, and all of them together. */
function kindsTable({ api }: PhaseResult): string {
  const kinds = [...api.byKind.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const rows = [...kinds.map((kind) => [kind, api.byKind.get(kind)!] as const)];
  rows.push(['all', api.all()]);
  return formatTable(
    ['kind', 'count', 'p50', 'p99', 'max'],
    rows.map(([kind, histogram]) => [
      kind,
      count(histogram.count),
      ms(msAt(histogram, 0.5)),
      ms(msAt(histogram, 0.99)),
      ms(maxMs(histogram)),
    ]),
  );
}

/** The figures, as plain lines for a terminal or a CI log. */
export function formatReport(figures: SoakFigures): string {
  const { options, warmUp, measured, heap, heapBound, heapTrend, busy, load } = figures;
  const phase = measured ?? warmUp;
  const { events } = phase;
  const all = phase.api.all();
  const after = heap.after;
  const lines = [
    `npm run soak: the Node host (prod settings, prod logging) on 127.0.0.1; ` +
      `${options.connections} keep-alive API connections, ${options.clients} event clients ` +
      `coming and going; Node ${process.versions.node}, ${cpus().length} CPUs`,
    '',
    row(
      'duration',
      `${seconds(warmUp.seconds + (measured?.seconds ?? 0))} of traffic: ` +
        `${seconds(warmUp.seconds)} warm-up (${count(warmUp.api.requests)} requests), then ` +
        (measured ? `${seconds(measured.seconds)} measured (figures below)` : 'stopped'),
    ),
    row('requests served', `${count(all.count)} (${count(all.count / phase.seconds)}/s)`),
    kindsTable(phase),
    row('p99 latency', ms(msAt(all, 0.99))),
    row(
      'events delivered',
      `${count(events.changes)} change events (${count(events.changes / phase.seconds)}/s) ` +
        `and ${count(events.snapshots)} snapshots`,
    ),
    row(
      'clients connected',
      `${count(events.connected)} streams in all by ${options.clients} clients, ` +
        `${count(events.openMs / 1000 / phase.clientSeconds)} open on average and ` +
        `${events.peakOpen} at most; resumes: ` +
        `${count(events.replayed)} in sequence, ${count(events.tooOld)} too old for the replay ` +
        `buffer (snapshot); ${count(events.unknownIds)} foreign or garbage ids (snapshot); ` +
        `${count(events.endedByServer)} streams ended by the service`,
    ),
    row(
      '  stream answered',
      `p50 ${ms(msAt(events.answerMs, 0.5))}, p99 ${ms(msAt(events.answerMs, 0.99))} ` +
        `after it was asked for`,
    ),
    row(
      'heap after GC',
      `before ${mib(heap.before.heapUsed)}, after ${after ? mib(after.heapUsed) : '—'}` +
        (after ? `: ${signedMib(after.heapUsed - heap.before.heapUsed)}` : '') +
        ` (bound ${signedMib(heapBound)})`,
    ),
  ];
  if (measured) {
    const perOne = (things: number) => {
      const bytes = heapBound / Math.max(1, things);
      return bytes < 10 ? bytes.toFixed(2) : count(bytes);
    };
    lines.push(
      row(
        '  the bound',
        `crossed by a leak of ${perOne(measured.api.requests)} B a request, ` +
          `${perOne(measured.events.changes)} B an event delivered or ` +
          `${perOne(measured.events.connected)} B a stream, over this run`,
      ),
    );
  }
  if (heapTrend.length > 0) {
    lines.push(
      row(
        '  while running',
        `${mib(Math.min(...heapTrend))} to ${mib(Math.max(...heapTrend))} over ` +
          `${heapTrend.length} samples (every 10 s, with ${options.clients} event clients ` +
          `coming and going)`,
      ),
    );
  }
  if (after) {
    lines.push(
      row(
        '  rss, external',
        `rss ${mib(heap.before.rss)} → ${mib(after.rss)}, external ` +
          `${mib(heap.before.external)} → ${mib(after.external)}`,
      ),
    );
  }
  const shareOfCore = busy
    ? `service ${Math.round(busy.service * 100)}% of a core, soak ${Math.round(busy.soak * 100)}%; `
    : '';
  const passed = figures.failures.total === 0;
  lines.push(
    row('open streams', `${figures.openStreamsAtEnd ?? '—'} at the end`),
    row(
      'load',
      `${shareOfCore}1-min load average ${load.start.toFixed(2)} → ${load.end.toFixed(2)} ` +
        `on ${cpus().length} CPUs`,
    ),
    row('result', passed ? 'PASS' : 'FAIL'),
    ...(passed ? [] : figures.failures.describe().map((line) => `  ${line}`)),
  );
  return lines.join('\n');
}
