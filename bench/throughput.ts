import { withinSeconds } from './bounds.ts';
import { SERVER_NAMES, type ServerChild, type ServerKind } from './children.ts';
import { withServer, type Harness } from './harness.ts';
import { applyLoad, type LoadPlan, type LoadResult } from './load.ts';
import type { Scenario } from './scenarios.ts';

export interface ThroughputRun {
  readonly scenario: string;
  readonly kind: ServerKind;
  readonly round: number;
  readonly result: LoadResult;
  readonly warmUp: LoadResult | undefined;
}

/**
 * Warms `plan` up on `server`, then measures it: the warm-up's requests come out of
 * `plan.maxRequests`, with one in flight per connection counted as spent.
 */
async function warmThenMeasure(
  harness: Harness,
  server: ServerChild,
  plan: LoadPlan,
): Promise<{ result: LoadResult; warmUp: LoadResult | undefined }> {
  const { load, warmUpSeconds, progress } = harness;
  let spent = 0;
  const left = () => (plan.maxRequests === undefined ? undefined : plan.maxRequests - spent);
  let warmUp: LoadResult | undefined;
  if (warmUpSeconds > 0) {
    progress.show(`warming up ${warmUpSeconds} s`);
    warmUp = await applyLoad(server, plan, { ...load, seconds: warmUpSeconds }, left());
    spent += warmUp.requests + load.connections;
  }
  progress.show(`measuring ${load.seconds} s`);
  return { result: await applyLoad(server, plan, load, left()), warmUp };
}

/** What one run should take, for the estimate of the time left: start, warm-up, measure, stop. */
export const throughputRunSeconds = (warmUpSeconds: number, seconds: number) =>
  warmUpSeconds + seconds + 0.5;

/**
 * Every scenario on every server, a fresh server for each, the servers taking turns within
 * each scenario and round, so drift on a shared machine touches them alike.
 */
export async function runThroughput(
  harness: Harness,
  scenarios: readonly Scenario[],
  kinds: readonly ServerKind[],
): Promise<ThroughputRun[]> {
  const runs: ThroughputRun[] = [];
  const seconds = harness.warmUpSeconds + harness.load.seconds;
  for (let round = 1; round <= harness.rounds; round += 1) {
    for (const scenario of scenarios) {
      for (const kind of kinds) {
        harness.progress.step(
          `round ${round}/${harness.rounds}, ${scenario.label}, ${SERVER_NAMES[kind]}`,
          throughputRunSeconds(harness.warmUpSeconds, harness.load.seconds),
        );
        const name = `${kind}-${scenario.id}-r${round}`;
        const run = await withServer(harness, kind, name, async (server) => {
          harness.progress.show('setting up the list');
          const plan = await withinSeconds('setting up', 60, () =>
            scenario.prepare(server, seconds, harness.maxItems),
          );
          return warmThenMeasure(harness, server, plan);
        });
        runs.push({ scenario: scenario.id, kind, round, ...run });
      }
    }
  }
  return runs;
}
