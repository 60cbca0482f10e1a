import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * Latencies in Node's HDR histogram, in microseconds: three significant figures at any size,
 * in a fixed few kilobytes however many millions of requests a run makes.
 */
export type Latencies = RecordableHistogram;

export const latencies = (): Latencies => createHistogram();

/** The histogram counts whole microseconds from 1 up. */
export const recordMs = (histogram: Latencies, ms: number): void =>
  histogram.record(Math.max(1, Math.round(ms * 1000)));

/** The latency below which fraction `p` (0..1) of the samples fall, in ms; NaN when none. */
export const msAt = (histogram: Latencies, p: number): number =>
  histogram.count === 0 ? Number.NaN : histogram.percentile(p * 100) / 1000;

export const maxMs = (histogram: Latencies): number =>
  histogram.count === 0 ? Number.NaN : histogram.max / 1000;
