import { randomBytes } from 'node:crypto';
import { applyLoad, type LoadPlan } from './load.ts';
import { headerOf, post, postThenDelete } from './scenarios.ts';
import { format, median, medianRatio, status, table } from './table.ts';
import { takeTurns, type Bench, type SliceRun } from './turns.ts';

/** How many named lists the writes are spread over, each count on a server of its own. */
const LIST_COUNTS = [1, 100, 10_000] as const;
/** How many lists of one item the memory is measured for. */
const LISTS_FOR_MEMORY = 10_000;

export interface ListRuns {
  /** Keyed by the count of lists; `probe` runs are GETs of lists nobody made. */
  readonly spread: readonly SliceRun<number>[];
  readonly probes: readonly SliceRun<number>[];
  /** Heap + external that LISTS_FOR_MEMORY lists hold above a new service, and per list. */
  readonly memory: readonly { readonly aboveEmpty: number; readonly perList: number }[];
}

/**
 * Each connection creates an item in a list picked at random and deletes it, again and again:
 * every list keeps its one item, and the writes land on all the lists alike.
 */
const spreadWrites = (ids: readonly string[]): LoadPlan =>
  postThenDelete(() => `/api/lists/${ids[Math.floor(Math.random() * ids.length)]}/todos`);

/** GET of the items of a list nobody made, a new random id each time: what a probe costs. */
const nobodys = () => `/api/lists/${randomBytes(16).toString('base64url')}/todos`;
const probe: LoadPlan = {
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: nobodys() }) }],
  expect: [404],
};

/** A named list made by POST /api/lists, then one item in it, again and again. */
const listThenItem: LoadPlan = {
  requests: [
    {
      method: 'POST',
      path: '/api/lists',
      onResponse: (_, __, context, headers) => (context.list = headerOf(headers, 'location')),
    },
    {
      ...post,
      setupRequest: (request, context) => ({ ...request, path: `${String(context.list)}/todos` }),
    },
  ],
  expect: [201],
};

/**
 * Memory of named lists of one item, ours only: lists and items made by real requests, so each
 * holds what a request leaves behind; measured after GC on a new service, after its first 200
 * lists, and after all of them.
 */
async function measureListMemory(bench: Bench, round: number) {
  status.show(`lists: memory, round ${round} of ${bench.rounds}`);
  const server = await bench.launch('ours', `ours-list-memory-r${round}`);
  try {
    const make = (count: number) =>
      applyLoad(server, listThenItem, { connections: 50, seconds: 120 }, 2 * count);
    const held = async () => {
      const { heapUsed, external } = await server.memory();
      return heapUsed + external;
    };
    const empty = await held();
    await make(200);
    const warm = await held();
    await make(LISTS_FOR_MEMORY - 200);
    const all = await held();
    return { aboveEmpty: all - empty, perList: (all - warm) / (LISTS_FOR_MEMORY - 200) };
  } finally {
    await server.stop();
  }
}

/** Ours only: writes spread over each count of lists, probes, and the memory of lists. */
export async function runLists(bench: Bench): Promise<ListRuns> {
  const servers = await Promise.all(
    LIST_COUNTS.map((lists) => bench.launch('ours', `ours-lists-${lists}`)),
  );
  try {
    const contenders = await Promise.all(
      servers.map(async (server, at) => ({
        key: LIST_COUNTS[at]!,
        server,
        plan: spreadWrites(await server.seedLists(LIST_COUNTS[at]!)),
      })),
    );
    const spread = await takeTurns(contenders, bench.turns, 'lists: writes');
    const probes = await takeTurns(
      contenders.map((contender) => ({ ...contender, plan: probe })),
      { ...bench.turns, warmUpSeconds: 0, turns: 2 },
      'lists: probes',
    );
    const memory = [];
    for (let round = 1; round <= bench.rounds; round += 1) {
      memory.push(await measureListMemory(bench, round));
    }
    return { spread, probes, memory };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

export function listsTable({ spread, probes, memory }: ListRuns): string {
  const byCount = (runs: readonly SliceRun<number>[], value: (run: SliceRun<number>) => number) =>
    LIST_COUNTS.map((lists) => median(runs.filter((run) => run.key === lists).map(value)));
  const pairs = (run: SliceRun<number>) => run.result.requestsPerSecond / 2;
  const cpu = (run: SliceRun<number>) => run.result.serverCpuUsPerRequest;
  const toOne = LIST_COUNTS.map((lists) =>
    medianRatio(
      spread,
      (run) => run.key === lists,
      (run) => run.key === 1,
      pairs,
    ),
  );
  const rows = table(
    ['ours, writes spread over', ...LIST_COUNTS.map((lists) => `${format.count(lists)} lists`)],
    [
      ['POST + DELETE pairs/s', ...byCount(spread, pairs).map(format.count)],
      ['server CPU µs per request', ...byCount(spread, cpu).map(format.fixed(1))],
      ['rate against 1 list', ...toOne.map(format.ratio)],
      [
        'GET of an id nobody made (404): req/s',
        ...byCount(probes, (run) => run.result.requestsPerSecond).map(format.count),
      ],
      ['the same: server CPU µs per request', ...byCount(probes, cpu).map(format.fixed(1))],
    ],
  );
  if (memory.length === 0) return rows;
  const aboveEmpty = median(memory.map((run) => run.aboveEmpty));
  const perList = median(memory.map((run) => run.perList));
  return (
    `${rows}\n\nMemory of named lists of one item (ours, made by POST, after GC): ` +
    `${format.count(LISTS_FOR_MEMORY)} lists hold ${format.mib(aboveEmpty)} of heap + external ` +
    `above a new service; past the first 200, ${format.count(perList)} bytes a list.`
  );
}
