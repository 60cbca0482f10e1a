import type { CommitCounts } from './child-ipc.ts';
import type { ServerChild, ServerKind } from './children.ts';
import { applyLoad, type LoadPlan, type LoadResult } from './load.ts';
import { status } from './table.ts';

/** How the load takes turns between servers up at once. */
export interface TurnSettings {
  readonly connections: number;
  readonly warmUpSeconds: number;
  /** How many turns; in each, every server gets one slice of load. */
  readonly turns: number;
  readonly sliceSeconds: number;
}

/** One server under load, and what it is called in the runs. */
export interface Contender<K> {
  readonly key: K;
  readonly server: ServerChild;
  readonly plan: LoadPlan;
}

export interface SliceRun<K> {
  readonly turn: number;
  readonly key: K;
  readonly result: LoadResult;
  /** The commits to storage the server made in the slice; null without storage. */
  readonly commits: CommitCounts | null;
}

/** What was counted in `after` and not yet in `before`. */
function commitsBetween(before: CommitCounts | null, after: CommitCounts | null) {
  return (
    after && {
      sizes: after.sizes.map((count, size) => count - (before?.sizes[size] ?? 0)),
      busyMs: after.busyMs - (before?.busyMs ?? 0),
    }
  );
}

/**
 * Warms every contender up, then loads them in turns, one slice each, the order turned every
 * turn: slices of one turn see the same moments of a shared, noisy machine, so a ratio taken
 * within a turn is steadier than one between servers measured one after another. A plan's
 * `maxRequests` counts over all its slices, one request in flight a connection counted spent.
 */
export async function takeTurns<K>(
  contenders: readonly Contender<K>[],
  { connections, warmUpSeconds, turns, sliceSeconds }: TurnSettings,
  label: string,
): Promise<SliceRun<K>[]> {
  const spent = new Map<Contender<K>, number>();
  const load = async (contender: Contender<K>, seconds: number) => {
    const { server, plan } = contender;
    const used = spent.get(contender) ?? 0;
    const left = plan.maxRequests === undefined ? undefined : plan.maxRequests - used;
    const result = await applyLoad(server, plan, { connections, seconds }, left);
    spent.set(contender, used + result.requests + connections);
    return result;
  };
  if (warmUpSeconds > 0) {
    status.show(`${label}: warming up`);
    for (const contender of contenders) await load(contender, warmUpSeconds);
  }
  const runs: SliceRun<K>[] = [];
  for (let turn = 1; turn <= turns; turn += 1) {
    status.show(`${label}: turn ${turn} of ${turns}`);
    const order = contenders.map((_, at) => contenders[(at + turn) % contenders.length]!);
    for (const contender of order) {
      const before = await contender.server.commits();
      const result = await load(contender, sliceSeconds);
      const commits = commitsBetween(before, await contender.server.commits());
      runs.push({ turn, key: contender.key, result, commits });
    }
  }
  return runs;
}

/** What every section shares: how to start a server, and how long to load it. */
export interface Bench {
  readonly turns: TurnSettings;
  /** Rounds, each on new servers, of fan-out, the memory of lists, and two builds' throughput. */
  readonly rounds: number;
  /** `limits.maxItems` for every server, so POST and the DELETE pool fit. */
  readonly maxItems: number;
  /** Starts a fresh server; `name` names its CPU profile when profiles are asked for. */
  launch(kind: ServerKind, name: string): Promise<ServerChild>;
}
