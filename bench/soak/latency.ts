/** Buckets 2% wide: a percentile read from them is within 2% of the true value. */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
/** From 1 µs up to about 10 minutes. */
const BUCKETS = Math.ceil(Math.log(600e6) / LOG_GROWTH) + 1;

/**
 * Latencies in logarithmic buckets: a run of millions of requests keeps a fixed few
 * kilobytes instead of every sample, and sorting nothing at the end.
 */
export class LatencyHistogram {
  readonly #counts = new Float64Array(BUCKETS);
  #total = 0;
  #maxMs = 0;

  get count(): number {
    return this.#total;
  }

  get maxMs(): number {
    return this.#maxMs;
  }

  record(ms: number): void {
    const micros = Math.max(1, ms * 1000);
    const bucket = Math.min(BUCKETS - 1, Math.ceil(Math.log(micros) / LOG_GROWTH));
    this.#counts[bucket]! += 1;
    this.#total += 1;
    if (ms > this.#maxMs) this.#maxMs = ms;
  }

  add(other: LatencyHistogram): void {
    other.#counts.forEach((count, bucket) => (this.#counts[bucket]! += count));
    this.#total += other.#total;
    this.#maxMs = Math.max(this.#maxMs, other.#maxMs);
  }

  /** The upper edge of the bucket holding fraction `p` (0..1) of the samples, in ms. */
  percentileMs(p: number): number {
    if (this.#total === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil(p * this.#total));
    let seen = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
      seen += this.#counts[bucket]!;
      if (seen >= rank) return Math.min(this.#maxMs, GROWTH ** bucket / 1000);
    }
    return this.#maxMs;
  }
}
