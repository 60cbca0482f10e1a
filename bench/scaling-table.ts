import { format, formatTable } from './format.ts';
import {
  ITEM_SIZES,
  LIST_SIZES,
  type ItemMemoryRun,
  type ScalingOperation,
  type ScalingRun,
} from './scaling.ts';
import { median, medianRatio } from './stats.ts';

export interface ScalingSummary {
  /** Requests (or POST + DELETE pairs) per second by operation and list size: medians. */
  readonly rates: Record<string, Record<number, number>>;
  /** Each round's rate at 10,000 items over its rate at 10, median over rounds. */
  readonly largeToSmall: Record<string, number | undefined>;
  /** GET list: wall time and server CPU time per item listed, by list size. */
  readonly listMicrosecondsPerItem: Record<number, number>;
  readonly listCpuMicrosecondsPerItem: Record<number, number>;
  readonly memoryPerItem: { readonly heapExternal: number; readonly rss: number } | undefined;
}

const ITEM_OPERATIONS: readonly [ScalingOperation, string][] = [
  ['get-one', 'GET one (req/s)'],
  ['put', 'PUT (req/s)'],
  ['post-delete', 'DELETE, each after the POST of its item (pairs/s)'],
];
// Each POST + DELETE pair is two requests.
const rateOf = (run: ScalingRun) =>
  run.operation === 'post-delete' ? run.result.requestsPerSecond / 2 : run.result.requestsPerSecond;

export function summariseScaling(
  runs: readonly ScalingRun[],
  memory: readonly ItemMemoryRun[],
): ScalingSummary {
  const rates: Record<string, Record<number, number>> = {};
  const largeToSmall: Record<string, number | undefined> = {};
  for (const operation of ['get-one', 'put', 'post-delete', 'get-list'] as const) {
    const of = runs.filter((run) => run.operation === operation);
    const sizes = operation === 'get-list' ? LIST_SIZES : ITEM_SIZES;
    rates[operation] = Object.fromEntries(
      sizes.map((items) => [items, median(of.filter((run) => run.items === items).map(rateOf))]),
    );
    largeToSmall[operation] = medianRatio(
      of,
      (run) => run.items === sizes[sizes.length - 1],
      (run) => run.items === sizes[0],
      rateOf,
    );
  }
  const lists = runs.filter((run) => run.operation === 'get-list');
  const perItem = (value: (run: ScalingRun) => number) =>
    Object.fromEntries(
      LIST_SIZES.map((items) => [
        items,
        median(lists.filter((run) => run.items === items).map(value)),
      ]),
    );
  return {
    rates,
    largeToSmall,
    listMicrosecondsPerItem: perItem((run) => 1e6 / run.result.requestsPerSecond / run.items),
    listCpuMicrosecondsPerItem: perItem((run) => run.result.serverCpuUsPerRequest / run.items),
    memoryPerItem:
      memory.length === 0
        ? undefined
        : {
            heapExternal: median(memory.map((run) => run.heapExternalPerItem)),
            rss: median(memory.map((run) => run.rssPerItem)),
          },
  };
}

/** What each item added costs a GET: constant when the list is served in linear time. */
function marginal(summary: ScalingSummary, smaller: number, larger: number): number {
  const microseconds = (items: number) => 1e6 / (summary.rates['get-list']?.[items] ?? NaN);
  return (microseconds(larger) - microseconds(smaller)) / (larger - smaller);
}

const sizeHeader = (sizes: readonly number[]) =>
  sizes.map((items) => `${items.toLocaleString('en-US')} items`);

export function scalingTables(summary: ScalingSummary): string {
  const items = formatTable(
    ['ours, by list size', ...sizeHeader(ITEM_SIZES), '10,000 / 10'],
    ITEM_OPERATIONS.map(([operation, label]) => [
      label,
      ...ITEM_SIZES.map((size) => format.count(summary.rates[operation]?.[size] ?? NaN)),
      format.ratio(summary.largeToSmall[operation]),
    ]),
  );
  const list = formatTable(
    ['ours, GET list', ...sizeHeader(LIST_SIZES)],
    [
      [
        'requests per second',
        ...LIST_SIZES.map((size) => format.count(summary.rates['get-list']?.[size] ?? NaN)),
      ],
      [
        'µs per item listed (1 s ÷ req/s ÷ items)',
        ...LIST_SIZES.map((size) => format.fixed(3)(summary.listMicrosecondsPerItem[size] ?? NaN)),
      ],
      [
        'server CPU µs per item listed',
        ...LIST_SIZES.map((size) =>
          format.fixed(3)(summary.listCpuMicrosecondsPerItem[size] ?? NaN),
        ),
      ],
      [
        'µs per item added since the size before',
        '',
        ...LIST_SIZES.slice(1).map((size, index) =>
          format.fixed(3)(marginal(summary, LIST_SIZES[index]!, size)),
        ),
      ],
    ],
  );
  const memory = summary.memoryPerItem;
  const perItem =
    memory === undefined
      ? ''
      : `\n\nMemory per stored item (ours, 10,000 items made by POST, after GC): ` +
        `${format.count(memory.heapExternal)} bytes of heap + external ` +
        `(rss, in the JSON, also keeps what the requests' garbage grew).`;
  return `${items}\n\n${list}${perItem}`;
}
