import { format, formatTable } from './format.ts';
import { LIST_COUNTS, type ListMemoryRun, type ListSpreadRun } from './lists.ts';
import { median, medianRatio } from './stats.ts';

export interface ListsSummary {
  /** POST + DELETE pairs per second, and server CPU µs per request, by list count: medians. */
  readonly pairsPerSecond: Record<number, number>;
  readonly cpuPerRequest: Record<number, number>;
  /** Each round's rate over many lists over its rate on one, median over rounds. */
  readonly toOneList: Record<number, number | undefined>;
  /** GETs of an id that names no list: per second, and server CPU µs each, by list count. */
  readonly probesPerSecond: Record<number, number>;
  readonly probeCpu: Record<number, number>;
  readonly memoryPerList: number | undefined;
  /** What 10,000 lists of one item hold above a new service. */
  readonly memoryAboveEmpty: number | undefined;
}

export function summariseLists(
  runs: readonly ListSpreadRun[],
  memory: readonly ListMemoryRun[],
): ListsSummary {
  const at = (lists: number) => runs.filter((run) => run.lists === lists);
  const byCount = (value: (run: ListSpreadRun) => number) =>
    Object.fromEntries(LIST_COUNTS.map((lists) => [lists, median(at(lists).map(value))]));
  const rate = (run: ListSpreadRun) => run.result.requestsPerSecond / 2;
  return {
    pairsPerSecond: byCount(rate),
    cpuPerRequest: byCount((run) => run.result.serverCpuUsPerRequest),
    toOneList: Object.fromEntries(
      LIST_COUNTS.map((lists) => [
        lists,
        medianRatio(
          runs,
          (run) => run.lists === lists,
          (run) => run.lists === 1,
          rate,
        ),
      ]),
    ),
    probesPerSecond: byCount((run) => run.probe.requestsPerSecond),
    probeCpu: byCount((run) => run.probe.serverCpuUsPerRequest),
    memoryPerList:
      memory.length === 0 ? undefined : median(memory.map((run) => run.heapExternalPerList)),
    memoryAboveEmpty:
      memory.length === 0 ? undefined : median(memory.map((run) => run.heapExternalAboveEmpty)),
  };
}

export function listsTable(summary: ListsSummary): string {
  const table = formatTable(
    [
      'ours, writes spread over',
      ...LIST_COUNTS.map((lists) => `${lists.toLocaleString('en-US')} lists`),
    ],
    [
      [
        'POST + DELETE pairs/s',
        ...LIST_COUNTS.map((lists) => format.count(summary.pairsPerSecond[lists] ?? NaN)),
      ],
      [
        'server CPU µs per request',
        ...LIST_COUNTS.map((lists) => format.fixed(1)(summary.cpuPerRequest[lists] ?? NaN)),
      ],
      [
        'rate against 1 list',
        ...LIST_COUNTS.map((lists) => format.ratio(summary.toOneList[lists])),
      ],
      [
        'GET of an id nobody made (404): req/s',
        ...LIST_COUNTS.map((lists) => format.count(summary.probesPerSecond[lists] ?? NaN)),
      ],
      [
        'the same: server CPU µs per request',
        ...LIST_COUNTS.map((lists) => format.fixed(1)(summary.probeCpu[lists] ?? NaN)),
      ],
    ],
  );
  const { memoryPerList: perList, memoryAboveEmpty: aboveEmpty } = summary;
  const memory =
    perList === undefined || aboveEmpty === undefined
      ? ''
      : `\n\nMemory of named lists of one item (ours, made by POST, after GC): 10,000 lists ` +
        `hold ${format.mib(aboveEmpty)} of heap + external above a new service; past the ` +
        `first 200, ${format.count(perList)} bytes a list.`;
  return `${table}${memory}`;
}
