import { nameOf, type ServerKind } from './children.ts';
import { measureFanOut, type FanOutResult, type FanOutSettings } from './fan-out.ts';
import { withinSeconds } from './load.ts';
import { format, median, medianRatio, status, table } from './table.ts';
import type { Bench } from './turns.ts';

export const FAN_OUT: FanOutSettings = { streams: 10_000, changes: 100, warmUpChanges: 10 };
/** Opens and closes a few streams first, so the memory measured is not code being compiled. */
const WARM_UP: FanOutSettings = { streams: 50, changes: 10, warmUpChanges: 0 };
/** Neither Fastify baseline serves events: fan-out has a baseline in bare node:http only. */
const KINDS = ['ours', 'bare'] as const;

export interface FanOutRun {
  readonly turn: number;
  readonly kind: ServerKind;
  readonly result: FanOutResult;
}

export async function runFanOut(bench: Bench): Promise<FanOutRun[]> {
  const runs: FanOutRun[] = [];
  for (let turn = 1; turn <= bench.rounds; turn += 1) {
    for (const kind of KINDS) {
      status.show(`fan-out, round ${turn} of ${bench.rounds}, ${nameOf(kind)}`);
      const server = await bench.launch(kind, `${kind}-fan-out-r${turn}`);
      try {
        await withinSeconds('the warm-up', 60, () => measureFanOut(server, WARM_UP));
        const result = await withinSeconds('the fan-out', 180, () =>
          measureFanOut(server, FAN_OUT),
        );
        runs.push({ turn, kind, result });
      } finally {
        await server.stop();
      }
    }
  }
  return runs;
}

type Figure = {
  [K in keyof FanOutResult]: FanOutResult[K] extends number ? K : never;
}[keyof FanOutResult];
const ROWS: readonly [Figure, string, (value: number) => string][] = [
  ['firstP50Ms', 'change sent → first stream has it, p50 (ms)', format.fixed(1)],
  ['firstP99Ms', 'change sent → first stream has it, p99 (ms)', format.fixed(1)],
  ['delayP50Ms', 'change sent → last stream has it, p50 (ms)', format.fixed(1)],
  ['delayP99Ms', 'change sent → last stream has it, p99 (ms)', format.fixed(1)],
  ['delayMaxMs', 'change sent → last stream has it, max (ms)', format.fixed(1)],
  ['serverCpuMsPerChange', 'server CPU per change (ms)', format.fixed(2)],
  ['clientCpuMsPerChange', 'client CPU per change, every socket read (ms)', format.fixed(2)],
  ['heapExternalPerStream', 'memory per open stream, heap + external (KiB)', format.kib],
  ['rssPerStream', 'memory per open stream, rss (KiB)', format.kib],
  ['heldAfterClose', 'streams still held after all closed', format.count],
];

/** Medians over the rounds, and ours / bare, the median of each round's ratio. */
export function fanOutTable(runs: readonly FanOutRun[]): string {
  const title = `${format.count(FAN_OUT.streams)} streams, ${FAN_OUT.changes} changes one at a time`;
  return table(
    [title, ...KINDS.map(nameOf), 'ours / bare'],
    ROWS.map(([key, label, shown]) => {
      const value = (run: FanOutRun) => run.result[key];
      const ratio = medianRatio(
        runs,
        (run) => run.kind === 'ours',
        (run) => run.kind === 'bare',
        value,
      );
      return [
        label,
        ...KINDS.map((kind) => shown(median(runs.filter((run) => run.kind === kind).map(value)))),
        key === 'heldAfterClose' || key === 'clientCpuMsPerChange' ? '—' : format.ratio(ratio),
      ];
    }),
  );
}
