import { randomBytes } from 'node:crypto';
import { withServer, type Harness } from './harness.ts';
import { applyLoad, type LoadPlan, type LoadResult } from './load.ts';
import { headerOf, postThenDelete } from './scaling.ts';
import { post } from './scenarios.ts';

/** How many named lists the writes are spread over, each on a fresh server. */
export const LIST_COUNTS = [1, 100, 10_000] as const;
/** How many lists the memory is measured for, each holding one item. */
export const LISTS_FOR_MEMORY = 10_000;
export const LIST_MEMORY_SECONDS = 10;

/** How many slices each count gets in a round: the counts take turns, slice by slice. */
export const LIST_SLICES = 8;

export interface ListSpreadRun {
  readonly round: number;
  readonly slice: number;
  readonly lists: number;
  readonly result: LoadResult;
}

/** GETs of a random id that names no list, once per round on each count's server. */
export interface ListProbeRun {
  readonly round: number;
  readonly lists: number;
  readonly result: LoadResult;
}

export interface ListMemoryRun {
  readonly round: number;
  readonly lists: number;
  /** V8 heap plus memory outside it that `lists` lists of one item hold above a new service. */
  readonly heapExternalAboveEmpty: number;
  /** The same per list, past the first 200: what one more list costs, code warmed up. */
  readonly heapExternalPerList: number;
}

/** A slice's seconds: short, so that every count meets the same moments of a noisy machine. */
const SLICE_SECONDS = 1;

export const listRoundSeconds = (warmUpSeconds: number, seconds: number) =>
  LIST_COUNTS.length * (2 + warmUpSeconds + seconds + LIST_SLICES * SLICE_SECONDS);

/**
 * Each connection creates an item in a list picked at random and deletes it, again and again:
 * every list keeps its one item, and the writes land on all the lists alike.
 */
const spreadWrites = (ids: readonly string[]): LoadPlan =>
  postThenDelete(() => `/api/lists/${ids[Math.floor(Math.random() * ids.length)]}/todos`);

/** GET of the items of a list nobody made, a new random id each time: what a probe costs. */
const probe: LoadPlan = {
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => ({
        ...request,
        path: `/api/lists/${randomBytes(16).toString('base64url')}/todos`,
      }),
    },
  ],
  expect: [404],
};

/**
 * Ours only: writes spread over 1, 100 and 10,000 named lists of one item each, a server for
 * each count, all three up at once. The load takes turns between them in short slices, the
 * order turned every slice, as `bench:ab` does: a ratio is taken between the slices of one
 * turn, which saw the same machine, so drift does not favour one count.
 */
export async function runListSpread(
  harness: Harness,
  round: number,
): Promise<{ spread: ListSpreadRun[]; probes: ListProbeRun[] }> {
  harness.progress.step(
    `round ${round}/${harness.rounds}, writes over ${LIST_COUNTS.join(', ')} lists, ours`,
    listRoundSeconds(harness.warmUpSeconds, harness.load.seconds),
  );
  const servers = await Promise.all(
    LIST_COUNTS.map((lists) => harness.launch('ours', `ours-lists-${lists}-r${round}`)),
  );
  try {
    const plans = await Promise.all(
      servers.map(async (server, index) =>
        spreadWrites(await server.seedLists(LIST_COUNTS[index]!)),
      ),
    );
    const slice = { ...harness.load, seconds: SLICE_SECONDS };
    harness.progress.show(`warming up ${harness.warmUpSeconds} s each`);
    for (const [index, server] of servers.entries()) {
      await applyLoad(server, plans[index]!, { ...harness.load, seconds: harness.warmUpSeconds });
    }
    const spread: ListSpreadRun[] = [];
    for (let turn = 1; turn <= LIST_SLICES; turn += 1) {
      harness.progress.show(`slice ${turn} of ${LIST_SLICES}`);
      const order = LIST_COUNTS.map((_, index) => (index + turn) % LIST_COUNTS.length);
      for (const index of order) {
        const result = await applyLoad(servers[index]!, plans[index]!, slice);
        spread.push({ round, slice: turn, lists: LIST_COUNTS[index]!, result });
      }
    }
    const probes: ListProbeRun[] = [];
    for (const [index, server] of servers.entries()) {
      harness.progress.show(`probes, ${harness.load.seconds} s`);
      probes.push({
        round,
        lists: LIST_COUNTS[index]!,
        result: await applyLoad(server, probe, harness.load),
      });
    }
    return { spread, probes };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

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
 * lists, and after `lists`.
 */
export async function measureListMemory(
  harness: Harness,
  round: number,
  lists: number,
): Promise<ListMemoryRun> {
  harness.progress.step(`round ${round}/${harness.rounds}, memory per list`, LIST_MEMORY_SECONDS);
  return withServer(harness, 'ours', `ours-list-memory-r${round}`, async (server) => {
    const make = (count: number) =>
      applyLoad(server, listThenItem, { ...harness.load, seconds: 120 }, 2 * count);
    const held = ({ heapUsed, external }: { heapUsed: number; external: number }) =>
      heapUsed + external;
    const empty = held(await server.memory());
    await make(200);
    const warm = held(await server.memory());
    await make(lists - 200);
    const all = held(await server.memory());
    return {
      round,
      lists,
      heapExternalAboveEmpty: all - empty,
      heapExternalPerList: (all - warm) / (lists - 200),
    };
  });
}
