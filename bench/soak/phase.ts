import { setTimeout as sleep } from 'node:timers/promises';
import { withinSeconds } from '../bounds.ts';
import { ApiTraffic } from './api-traffic.ts';
import { ChurningClients } from './churning-clients.ts';
import type { Failures } from './failures.ts';
import { readList, type ListRead } from './list-read.ts';
import type { Ledger } from './ledger.ts';
import { ApiTally, EventTally } from './tally.ts';

export interface PhaseDeps {
  readonly port: number;
  readonly run: string;
  readonly replayEvents: number;
  readonly ledger: Ledger;
  readonly failures: Failures;
  readonly connections: number;
  readonly clients: number;
}

export interface PhaseResult {
  readonly api: ApiTally;
  readonly events: EventTally;
  /** How long the API traffic ran. */
  readonly seconds: number;
  /** From the first client connecting to the last leaving. */
  readonly clientSeconds: number;
  readonly final: ListRead;
}

/** Each step's limit: far above what it takes, so only a hung service reaches one. */
const STEP_LIMIT_SECONDS = 30;

export interface PhasePlan {
  readonly label: string;
  readonly seconds: number;
  /** Runs on past `seconds` until the API has made this many changes. */
  readonly minChanges: number;
  /** How many changes earlier phases made: the list's seq must count them all. */
  readonly changesBefore: number;
}

/**
 * Connects the event clients, runs API traffic as `plan` says (less if something fails),
 * stops it, and lets every connected client catch up with the last change and leave.
 */
export async function runPhase(
  deps: PhaseDeps,
  { label, seconds, minChanges, changesBefore }: PhasePlan,
  show: (api: ApiTally, events: EventTally) => void,
): Promise<PhaseResult> {
  const api = new ApiTally();
  const events = new EventTally();
  show(api, events);
  const clients = new ChurningClients({ ...deps, tally: events }, deps.clients);
  const clientsStarted = performance.now();
  clients.start();
  await withinSeconds(`${label}: connecting the event clients`, STEP_LIMIT_SECONDS, () =>
    clients.allConnected(),
  );

  const traffic = new ApiTraffic({ ...deps, tally: api }, deps.connections);
  const started = performance.now();
  let failed = false;
  void deps.failures.first.then(() => (failed = true));
  while (!failed && (performance.now() - started < seconds * 1000 || api.changes < minChanges)) {
    await sleep(20);
  }
  await withinSeconds(`${label}: stopping the API traffic`, STEP_LIMIT_SECONDS, () =>
    traffic.stop(),
  );
  const ran = (performance.now() - started) / 1000;

  const final = await readList(deps.port);
  // After a failure these would only repeat it: a request that failed may have changed the list.
  if (deps.failures.total === 0 && final.seq !== changesBefore + api.changes) {
    deps.failures.add(
      'change count',
      `the list is at seq ${final.seq} after ${changesBefore + api.changes} successful changes`,
    );
  }
  if (deps.failures.total === 0 && final.ids.size > 0) {
    deps.failures.add(
      'wrong answer',
      `the list holds ${final.ids.size} items after every connection deleted its own`,
    );
  }
  await withinSeconds(`${label}: the event clients catching up`, STEP_LIMIT_SECONDS, () =>
    clients.finish(final),
  );
  const clientSeconds = (performance.now() - clientsStarted) / 1000;
  const unseen = deps.ledger.settle();
  if (deps.clients > 0 && unseen > 0) {
    deps.failures.add('missed event', `${unseen} changes the API made reached no event client`);
  }
  return { api, events, seconds: ran, clientSeconds, final };
}
