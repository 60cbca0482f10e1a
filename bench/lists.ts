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

export interface ListSpreadRun {
  readonly round: number;
  readonly lists: number;
  readonly result: LoadResult;
  /** GETs of a random id that names no list, on the same server. */
  readonly probe: LoadResult;
}

export interface ListMemoryRun {
  readonly round: number;
  readonly lists: number;
  /** V8 heap plus memory outside it that `lists` lists of one item hold above a new service. */
  readonly heapExternalAboveEmpty: number;
  /** The same per list, past the first 200: what one more list costs, code warmed up. */
  readonly heapExternalPerList: number;
}

export const listCountSeconds = (warmUpSeconds: number, seconds: number) =>
  1 + warmUpSeconds + 2 * seconds;

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
 * Ours only: writes spread over 1, 100 and 10,000 named lists of one item each, a fresh server
 * for each count. The counts go up in odd rounds and down in even ones, so a machine that
 * drifts does not always favour the same count.
 */
export async function runListSpread(harness: Harness, round: number): Promise<ListSpreadRun[]> {
  const runs: ListSpreadRun[] = [];
  const counts = round % 2 === 1 ? LIST_COUNTS : [...LIST_COUNTS].reverse();
  for (const lists of counts) {
    harness.progress.step(
      `round ${round}/${harness.rounds}, writes over ${lists} lists, ours`,
      listCountSeconds(harness.warmUpSeconds, harness.load.seconds),
    );
    await withServer(harness, 'ours', `ours-lists-${lists}-r${round}`, async (server) => {
      const plan = spreadWrites(await server.seedLists(lists));
      harness.progress.show(`warming up ${harness.warmUpSeconds} s`);
      await applyLoad(server, plan, { ...harness.load, seconds: harness.warmUpSeconds });
      harness.progress.show(`measuring ${harness.load.seconds} s`);
      const result = await applyLoad(server, plan, harness.load);
      harness.progress.show(`probes, ${harness.load.seconds} s`);
      runs.push({ round, lists, result, probe: await applyLoad(server, probe, harness.load) });
    });
  }
  return runs;
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
