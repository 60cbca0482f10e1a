import type { MemorySample } from '../child-ipc.ts';
import type { ServerChild } from '../children.ts';
import { format } from '../format.ts';
import { StatusLine } from '../status-line.ts';
import type { Failures } from './failures.ts';
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
 * The soak's status line, a new line every five seconds in a log; it also samples the
 * service's heap every ten seconds while traffic runs.
 */
export class ProgressLine {
  readonly #started = performance.now();
  readonly #line = new StatusLine(() => this.#text(), 5000);
  readonly #heapTimer = setInterval(() => void this.#sampleHeap(), HEAP_EVERY_MS);
  readonly #heapTrend: number[] = [];
  #lastMemory: MemorySample | undefined;
  watched: Watched | undefined;

  constructor(
    private readonly totalSeconds: number,
    private readonly failures: Failures,
    private readonly server: ServerChild,
  ) {}

  /** The heap samples taken while traffic ran, oldest first. */
  get heapTrend(): readonly number[] {
    return this.#heapTrend;
  }

  stop(): void {
    clearInterval(this.#heapTimer);
    this.#line.end();
  }

  async #sampleHeap(): Promise<void> {
    if (this.watched === undefined) return;
    const sample = await this.server.memory().catch(() => undefined);
    if (sample === undefined) return;
    this.#lastMemory = sample;
    this.#heapTrend.push(sample.heapUsed);
  }

  #text(): string | undefined {
    if (this.watched === undefined) return undefined;
    const { phase, api, events } = this.watched;
    const elapsed = (performance.now() - this.#started) / 1000;
    const heap = this.#lastMemory;
    return [
      `soak ${format.seconds(elapsed)} of ${this.totalSeconds} s (${phase})`,
      `requests ${format.count(api.requests)}`,
      `5xx ${this.failures.count('5xx')}`,
      `resets ${this.failures.count('connection reset')}`,
      `events ${format.count(events.changes)}`,
      `clients ${events.open} open`,
      `heap ${heap === undefined ? '…' : format.mib(heap.heapUsed)}`,
      `failures ${this.failures.total}`,
    ].join(' | ');
  }
}
