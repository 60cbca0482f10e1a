import { format, formatTable } from './format.ts';
import { LIST_COUNTS, type ListMemoryRun, type ListProbeRun, type ListSpreadRun } from './lists.ts';
import { median, medianRatio } from './stats.ts';

export interface ListsSummary {
  /** POST + DELETE pairs per second, and server CPU µs per request, by list count: medians. */
  readonly pairsPerSecond: Record<number, number>;
  readonly cpuPerRequest: Record<number, number>;
  /** Each slice's rate over many lists over the rate on one in the same turn: the median. */
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
  probes: readonly ListProbeRun[],
  memory: readonly ListMemoryRun[],
): ListsSummary {
  const byCount = <Run extends { lists: number }>(
    of: readonly Run[],
    value: (run: Run) => number,
  ) =>
    Object.fromEntries(
      LIST_COUNTS.map((lists) => [
        lists,
        median(of.filter((run) => run.lists === lists).map(value)),
      ]),
    );
  const rate = (run: ListSpreadRun) => run.result.requestsPerSecond / 2;
  // medianRatio pairs runs by their round: here a turn of slices is such a round.
  const turns = runs.map((run) => ({ ...run, round: run.round * 1000 + run.slice }));
  return {
    pairsPerSecond: byCount(runs, rate),
    cpuPerRequest: byCount(runs, (run) => run.result.serverCpuUsPerRequest),
    toOneList: Object.fromEntries(
      LIST_COUNTS.map((lists) => [
        lists,
        medianRatio(
          turns,
          (run) => run.lists === lists,
          (run) => run.lists === 1,
          rate,
        ),
      ]),
    ),
    probesPerSecond: byCount(probes, (run) => run.result.requestsPerSecond),
    probeCpu: byCount(probes, (run) => run.result.serverCpuUsPerRequest),
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
