import { cpus, loadavg } from 'node:os';
import type { MemorySample } from '../child-ipc.ts';
import { maxMs, msAt } from '../latency.ts';
import type { Failures } from './failures.ts';
import { count, mib, ms, seconds, signedMib } from './format.ts';
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

/** The figures, as plain lines for a terminal or a CI log. */
export function formatReport(figures: SoakFigures): string {
  const { options, warmUp, measured, heap, failures } = figures;
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
  ];
  const phase = measured ?? warmUp;
  const all = phase.api.all();
  lines.push(
    row('requests served', `${count(all.count)} (${count(all.count / phase.seconds)}/s)`),
    `  ${'kind'.padEnd(20)} ${'count'.padStart(10)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'max'.padStart(9)}`,
  );
  const kinds = [...phase.api.byKind.keys()].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  for (const kind of [...kinds, 'all']) {
    const histogram = kind === 'all' ? all : phase.api.byKind.get(kind)!;
    lines.push(
      `  ${kind.padEnd(20)} ${count(histogram.count).padStart(10)} ` +
        `${ms(msAt(histogram, 0.5)).padStart(9)} ${ms(msAt(histogram, 0.99)).padStart(9)} ` +
        `${ms(maxMs(histogram)).padStart(9)}`,
    );
  }
  const { events } = phase;
  lines.push(
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
  );
  const after = heap.after;
  lines.push(
    row(
      'heap after GC',
      `before ${mib(heap.before.heapUsed)}, after ${after ? mib(after.heapUsed) : '—'}` +
        (after ? `: ${signedMib(after.heapUsed - heap.before.heapUsed)}` : '') +
        ` (bound ${signedMib(figures.heapBound)})`,
    ),
  );
  if (measured) {
    const { api: measuredApi, events: measuredEvents } = measured;
    const perOne = (things: number) => {
      const bytes = figures.heapBound / Math.max(1, things);
      return bytes < 10 ? bytes.toFixed(2) : count(bytes);
    };
    lines.push(
      row(
        '  the bound',
        `crossed by a leak of ${perOne(measuredApi.requests)} B a request, ` +
          `${perOne(measuredEvents.changes)} B an event delivered or ` +
          `${perOne(measuredEvents.connected)} B a stream, over this run`,
      ),
    );
  }
  if (figures.heapTrend.length > 0) {
    const trend = figures.heapTrend;
    lines.push(
      row(
        '  while running',
        `${mib(Math.min(...trend))} to ${mib(Math.max(...trend))} over ${trend.length} samples ` +
          `(every 10 s, with ${options.clients} event clients coming and going)`,
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
  lines.push(row('open streams', `${figures.openStreamsAtEnd ?? '—'} at the end`));
  const { busy, load } = figures;
  lines.push(
    row(
      'load',
      (busy
        ? `service ${Math.round(busy.service * 100)}% of a core, soak ${Math.round(busy.soak * 100)}%; `
        : '') +
        `1-min load average ${load.start.toFixed(2)} → ${load.end.toFixed(2)} on ${cpus().length} CPUs`,
    ),
  );
  const passed = failures.total === 0;
  lines.push(row('result', passed ? 'PASS' : 'FAIL'));
  if (!passed) lines.push(...failures.describe().map((line) => `  ${line}`));
  return lines.join('\n');
}

export const loadNow = () => loadavg()[0]!;

function row(label: string, text: string): string {
  return `${label.padEnd(18)} ${text}`;
}

function rank(kind: string): number {
  const index = KIND_ORDER.indexOf(kind);
  return index === -1 ? KIND_ORDER.length : index;
}
