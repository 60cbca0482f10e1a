import { withServer, type Harness } from './harness.ts';
import { applyLoad, type LoadPlan, type LoadResult } from './load.ts';
import { get, post, put } from './scenarios.ts';

export const ITEM_SIZES = [10, 1_000, 10_000] as const;
export const LIST_SIZES = [100, 1_000, 10_000] as const;
/** Each a fresh server in every round. */
export const SCALING_SIZES = [...new Set<number>([...ITEM_SIZES, ...LIST_SIZES])].sort(
  (a, b) => a - b,
);
export type ScalingOperation = 'get-one' | 'put' | 'post-delete' | 'get-list';

export interface ScalingRun {
  readonly round: number;
  readonly items: number;
  readonly operation: ScalingOperation;
  readonly result: LoadResult;
}

export interface ItemMemoryRun {
  readonly round: number;
  readonly items: number;
  /** V8 heap plus memory outside it, per item stored. */
  readonly heapExternalPerItem: number;
  readonly rssPerItem: number;
}

/** The operations measured at a list size: the item ones, GET list, or both. */
function operationsAt(items: number): ScalingOperation[] {
  const operations: ScalingOperation[] = [];
  if ((ITEM_SIZES as readonly number[]).includes(items))
    operations.push('get-one', 'put', 'post-delete');
  if ((LIST_SIZES as readonly number[]).includes(items)) operations.push('get-list');
  return operations;
}

/** What one list size should take, for the estimate of the time left. */
export const scalingSizeSeconds = (items: number, warmUpSeconds: number, seconds: number) =>
  0.5 + warmUpSeconds + operationsAt(items).length * seconds;
export const ITEM_MEMORY_SECONDS = 3;

export const headerOf = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

/**
 * Each connection creates an item and deletes it, again and again, so the list stays at the
 * size it was given: a DELETE of a pre-made pool would shrink it as it ran. Each POST goes to
 * the collection `collection()` names, by default the default list's.
 */
export function postThenDelete(collection = () => post.path): LoadPlan {
  return {
    requests: [
      {
        ...post,
        setupRequest: (request) => ({ ...request, path: collection() }),
        onResponse: (_, __, context, headers) => (context.at = headerOf(headers, 'location')),
      },
      {
        method: 'DELETE',
        setupRequest: (request, context) => ({ ...request, path: String(context.at) }),
      },
    ],
    expect: [200, 201],
  };
}

function planOf(operation: ScalingOperation, items: number, ids: readonly string[]): LoadPlan {
  const middle = ids[ids.length >> 1]!;
  switch (operation) {
    case 'get-one':
      return { requests: [get(`/api/todos/${middle}`)], expect: [200] };
    case 'put':
      return { requests: [put(middle)], expect: [200] };
    case 'post-delete':
      return postThenDelete();
    case 'get-list':
      return { requests: [get('/api/todos')], expect: [200], minBytes: items * 60 };
  }
}

/**
 * Ours only: at each list size a fresh server, warmed up once with all the operations in
 * turn, then each operation measured alone. The sizes go up in odd rounds and down in even
 * ones, so a machine that drifts does not always favour the same size.
 */
export async function runScaling(harness: Harness, round: number): Promise<ScalingRun[]> {
  const runs: ScalingRun[] = [];
  const sizes = round % 2 === 1 ? SCALING_SIZES : [...SCALING_SIZES].reverse();
  for (const items of sizes) {
    harness.progress.step(
      `round ${round}/${harness.rounds}, scaling at ${items} items, ours`,
      scalingSizeSeconds(items, harness.warmUpSeconds, harness.load.seconds),
    );
    await withServer(harness, 'ours', `ours-scaling-${items}-r${round}`, async (server) => {
      const ids = await server.seed(items);
      const plans = operationsAt(items).map(
        (operation) => [operation, planOf(operation, items, ids)] as const,
      );
      const all: LoadPlan = {
        requests: plans.flatMap(([, plan]) => plan.requests),
        expect: [200, 201],
      };
      harness.progress.show(`warming up ${harness.warmUpSeconds} s`);
      await applyLoad(server, all, { ...harness.load, seconds: harness.warmUpSeconds });
      for (const [operation, plan] of plans) {
        harness.progress.show(`${operation}, measuring ${harness.load.seconds} s`);
        runs.push({ round, items, operation, result: await applyLoad(server, plan, harness.load) });
      }
    });
  }
  return runs;
}

/**
 * Memory per stored item, ours only: items made by real POSTs, so each holds what a request
 * leaves behind; measured after GC, from a list of 200 to one of 200 + `items`.
 */
export async function measureItemMemory(
  harness: Harness,
  round: number,
  items: number,
): Promise<ItemMemoryRun> {
  harness.progress.step(
    `round ${round}/${harness.rounds}, memory per stored item`,
    ITEM_MEMORY_SECONDS,
  );
  return withServer(harness, 'ours', `ours-item-memory-r${round}`, async (server) => {
    const create = (count: number) =>
      applyLoad(
        server,
        { requests: [post], expect: [201] },
        { ...harness.load, seconds: 60 },
        count,
      );
    await create(200);
    const before = await server.memory();
    await create(items);
    const after = await server.memory();
    return {
      round,
      items,
      heapExternalPerItem:
        (after.heapUsed + after.external - before.heapUsed - before.external) / items,
      rssPerItem: (after.rss - before.rss) / items,
    };
  });
}
