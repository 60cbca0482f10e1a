import { nameOf, type ServerKind } from './children.ts';
import { withinSeconds } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { format, median, medianRatio, table } from './table.ts';
import { takeTurns, type Bench, type SliceRun } from './turns.ts';

export interface ThroughputRun extends SliceRun<ServerKind> {
  readonly scenario: string;
}

/**
 * Each scenario on every server, all of them up at once on fresh state, the load taking turns
 * between them; two builds `bench.rounds` times, on new processes: each is biased for life.
 */
export async function runThroughput(
  bench: Bench,
  scenarios: readonly Scenario[],
  kinds: readonly ServerKind[],
): Promise<ThroughputRun[]> {
  const rounds = kinds.includes('B') ? bench.rounds : 1;
  const runs: ThroughputRun[] = [];
  const { warmUpSeconds, turns, sliceSeconds } = bench.turns;
  const seconds = warmUpSeconds + turns * sliceSeconds;
  const rounded = scenarios.flatMap((scenario) =>
    [...Array(rounds).keys()].map((round) => ({ scenario, round })),
  );
  for (const { scenario, round } of rounded) {
    const servers = await Promise.all(
      kinds.map((kind) => bench.launch(kind, `${kind}-${scenario.id}`)),
    );
    try {
      const contenders = await withinSeconds('setting up', 300, () =>
        Promise.all(
          servers.map(async (server) => ({
            key: server.kind,
            server,
            plan: await scenario.prepare(server, seconds, bench.maxItems),
          })),
        ),
      );
      const label = rounds > 1 ? `${scenario.label}, round ${round + 1}` : scenario.label;
      // Turns numbered on across rounds, as a ratio pairs the runs of one turn.
      for (const run of await takeTurns(contenders, bench.turns, label)) {
        runs.push({ ...run, turn: round * turns + run.turn, scenario: scenario.id });
      }
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  }
  return runs;
}

/** Below this share of its core a server was not the limit: the load or the machine was. */
const SATURATED_PERCENT = 80;

/** Which server is set against which: ours against each baseline, or build B against A. */
const pairs = (kinds: readonly ServerKind[]): [ServerKind, ServerKind][] =>
  kinds.includes('B')
    ? [['B', 'A']]
    : kinds.filter((kind) => kind !== 'ours' && kind !== 'sqlite').map((kind) => ['ours', kind]);

/** Requests per second and CPU time per request of each server, and the ratios of the pairs. */
export function throughputTables(
  runs: readonly ThroughputRun[],
  scenarios: readonly Scenario[],
  kinds: readonly ServerKind[],
): string {
  const rows = scenarios.map(({ id, label }) => {
    const of = runs.filter((run) => run.scenario === id);
    const figure = (kind: ServerKind, value: (run: ThroughputRun) => number) =>
      median(of.filter((run) => run.key === kind).map(value));
    const ratio = (a: ServerKind, b: ServerKind, value: (run: ThroughputRun) => number) =>
      medianRatio(
        of,
        (run) => run.key === a,
        (run) => run.key === b,
        value,
      );
    const busy = (kind: ServerKind) => figure(kind, (run) => run.result.serverBusyPercent);
    const rate = (run: ThroughputRun) => run.result.requestsPerSecond;
    const speed = (run: ThroughputRun) => 1 / run.result.serverCpuUsPerRequest;
    return {
      rates: [
        label,
        ...kinds.map((kind) => format.count(figure(kind, rate))),
        ...pairs(kinds).map(([a, b]) => {
          const starred = Math.min(busy(a), busy(b)) < SATURATED_PERCENT ? '*' : '';
          return `${format.ratio(ratio(a, b, rate))}${starred}`;
        }),
      ],
      cpu: [
        label,
        ...kinds.map((kind) =>
          format.fixed(1)(figure(kind, (run) => run.result.serverCpuUsPerRequest)),
        ),
        ...pairs(kinds).map(([a, b]) => format.ratio(ratio(a, b, speed))),
      ],
    };
  });
  const ratios = pairs(kinds).map(([a, b]) => `${nameOf(a)} / ${nameOf(b)}`);
  return [
    table(
      ['req/s', ...kinds.map(nameOf), ...ratios],
      rows.map((row) => row.rates),
    ),
    `* One of the two used less than ${SATURATED_PERCENT}% of its core: autocannon, on one core, ` +
      `or other work on the machine set the pace; read that ratio by CPU time per request below.`,
    table(
      ['server CPU µs per request', ...kinds.map(nameOf), ...ratios.map((r) => `${r}, by CPU`)],
      rows.map((row) => row.cpu),
    ),
  ].join('\n\n');
}
