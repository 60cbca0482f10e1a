import { withinSeconds } from './bounds.ts';
import { SERVER_NAMES, type ServerKind } from './children.ts';
import { measureFanOut, type FanOutSettings } from './fan-out.ts';
import type { FanOutRun } from './fan-out-table.ts';
import { withServer, type Harness } from './harness.ts';
import type { BenchOptions } from './options.ts';
import {
  ITEM_MEMORY_SECONDS,
  measureItemMemory,
  runScaling,
  SCALING_SIZES,
  scalingSizeSeconds,
  type ItemMemoryRun,
  type ScalingRun,
} from './scaling.ts';
import {
  LIST_MEMORY_SECONDS,
  listRoundSeconds,
  LISTS_FOR_MEMORY,
  measureListMemory,
  runListSpread,
  type ListMemoryRun,
  type ListProbeRun,
  type ListSpreadRun,
} from './lists.ts';
import { runStorageWrites, storageRoundSeconds, type StorageRun } from './storage.ts';
import { runThroughput, throughputRunSeconds, type ThroughputRun } from './throughput.ts';

export const CONNECTIONS = 50;
/** Raised from prod's 10,000 for all three servers alike, so POST and the DELETE pool fit. */
export const MAX_ITEMS = 1_000_000;
export const FAN_OUT: FanOutSettings = { streams: 10_000, changes: 100, warmUpChanges: 10 };
/** Opens and closes a few streams first, so the memory measured is not code being compiled. */
const FAN_OUT_WARM_UP: FanOutSettings = { streams: 50, changes: 10, warmUpChanges: 0 };
const ITEMS_FOR_MEMORY = 10_000;

export interface AllRuns {
  readonly throughput: ThroughputRun[];
  readonly fanOut: FanOutRun[];
  readonly scaling: ScalingRun[];
  readonly itemMemory: ItemMemoryRun[];
  readonly listSpread: ListSpreadRun[];
  readonly listProbes: ListProbeRun[];
  readonly listMemory: ListMemoryRun[];
  readonly storage: StorageRun[];
}

/**
 * Fan-out has a baseline in bare node:http only: neither the Fastify baseline nor the trivial
 * handler serves events, and storage plays no part in sending them.
 */
export const fanOutKinds = (servers: readonly ServerKind[]): ServerKind[] =>
  servers.filter((kind) => kind === 'ours' || kind === 'bare');

const FAN_OUT_RUN_SECONDS = 20;

/** How many steps the run has, and how long they should take. */
export function planRun(options: BenchOptions): { steps: number; seconds: number } {
  const { sections, scenarios, servers, rounds, seconds, warmUpSeconds } = options;
  let steps = 0;
  let planned = 0;
  const add = (count: number, each: number) => {
    steps += rounds * count;
    planned += rounds * count * each;
  };
  if (sections.includes('throughput')) {
    add(scenarios.length * servers.length, throughputRunSeconds(warmUpSeconds, seconds));
  }
  if (sections.includes('fan-out')) add(fanOutKinds(servers).length, FAN_OUT_RUN_SECONDS);
  if (sections.includes('scaling')) {
    for (const items of SCALING_SIZES) add(1, scalingSizeSeconds(items, warmUpSeconds, seconds));
    add(1, ITEM_MEMORY_SECONDS);
  }
  if (sections.includes('lists')) {
    add(1, listRoundSeconds(warmUpSeconds, seconds));
    add(1, LIST_MEMORY_SECONDS);
  }
  if (sections.includes('storage')) add(1, storageRoundSeconds(warmUpSeconds));
  return { steps, seconds: planned };
}

async function runFanOut(harness: Harness, kinds: readonly ServerKind[], round: number) {
  const runs: FanOutRun[] = [];
  for (const kind of kinds) {
    harness.progress.step(
      `round ${round}/${harness.rounds}, fan-out, ${SERVER_NAMES[kind]}`,
      FAN_OUT_RUN_SECONDS,
    );
    const result = await withServer(harness, kind, `${kind}-fan-out-r${round}`, async (server) => {
      harness.progress.show('warming up');
      await withinSeconds('the warm-up', 60, () => measureFanOut(server, FAN_OUT_WARM_UP));
      harness.progress.show(`${FAN_OUT.streams} streams, ${FAN_OUT.changes} changes`);
      return withinSeconds('the fan-out', 180, () => measureFanOut(server, FAN_OUT));
    });
    runs.push({ round, kind, result });
  }
  return runs;
}

/** The sections asked for, each over all its rounds, in the order of the issue. */
export async function runSections(harness: Harness, options: BenchOptions): Promise<AllRuns> {
  const { sections, scenarios, servers, rounds } = options;
  const runs: AllRuns = {
    throughput: [],
    fanOut: [],
    scaling: [],
    itemMemory: [],
    listSpread: [],
    listProbes: [],
    listMemory: [],
    storage: [],
  };
  if (sections.includes('throughput')) {
    runs.throughput.push(...(await runThroughput(harness, scenarios, servers)));
  }
  for (let round = 1; sections.includes('fan-out') && round <= rounds; round += 1) {
    runs.fanOut.push(...(await runFanOut(harness, fanOutKinds(servers), round)));
  }
  for (let round = 1; sections.includes('scaling') && round <= rounds; round += 1) {
    runs.scaling.push(...(await runScaling(harness, round)));
    runs.itemMemory.push(await measureItemMemory(harness, round, ITEMS_FOR_MEMORY));
  }
  for (let round = 1; sections.includes('lists') && round <= rounds; round += 1) {
    const { spread, probes } = await runListSpread(harness, round);
    runs.listSpread.push(...spread);
    runs.listProbes.push(...probes);
    runs.listMemory.push(await measureListMemory(harness, round, LISTS_FOR_MEMORY));
  }
  for (let round = 1; sections.includes('storage') && round <= rounds; round += 1) {
    runs.storage.push(...(await runStorageWrites(harness, round)));
  }
  return runs;
}
