import { endProgress, progress } from './status-line.ts';
import type { Failures } from './failures.ts';
import { count, mib, seconds } from './format.ts';
import type { ServiceProbe } from './service-probe.ts';
import type { ApiTally, EventTally } from './tally.ts';

/** What the line shows: the tallies of the phase running now. */
export interface Watched {
  readonly phase: string;
  readonly api: ApiTally;
  readonly events: EventTally;
}

/** A heap sample forces two full collections in the service: often enough to see a trend. */
const HEAP_EVERY_MS = 10_000;

/**
 * The live status line on stderr: rewritten every second on a terminal, and a new line every
 * five seconds otherwise, so a CI log stays short. Also samples the heap every ten seconds.
 */
export class ProgressLine {
  readonly #started = performance.now();
  readonly #timers: NodeJS.Timeout[];
  readonly #totalSeconds: number;
  readonly #failures: Failures;
  readonly #probe: ServiceProbe;
  readonly #heapTrend: number[] = [];
  watched: Watched | undefined;

  constructor(totalSeconds: number, failures: Failures, probe: ServiceProbe) {
    this.#totalSeconds = totalSeconds;
    this.#failures = failures;
    this.#probe = probe;
    this.#timers = [
      setInterval(() => this.#show(), process.stderr.isTTY ? 1000 : 5000),
      setInterval(() => void this.#sampleHeap(), HEAP_EVERY_MS),
    ];
  }

  /** The heap samples taken while traffic ran, oldest first. */
  get heapTrend(): readonly number[] {
    return this.#heapTrend;
  }

  stop(): void {
    for (const timer of this.#timers) clearInterval(timer);
    endProgress();
  }

  async #sampleHeap(): Promise<void> {
    if (this.watched === undefined) return;
    const sample = await this.#probe.memory().catch(() => undefined);
    if (sample !== undefined) this.#heapTrend.push(sample.heapUsed);
  }

  #show(): void {
    const watched = this.watched;
    if (watched === undefined) return;
    const { api, events } = watched;
    const elapsed = (performance.now() - this.#started) / 1000;
    const heap = this.#probe.lastMemory;
    progress(
      [
        `soak ${seconds(elapsed)} of ${this.#totalSeconds} s (${watched.phase})`,
        `requests ${count(api.requests)}`,
        `5xx ${this.#failures.count('5xx')}`,
        `resets ${this.#failures.count('connection reset')}`,
        `events ${count(events.changes)}`,
        `clients ${events.open} open`,
        `heap ${heap === undefined ? '…' : mib(heap.heapUsed)}`,
        `failures ${this.#failures.total}`,
      ].join(' | '),
    );
  }
}
