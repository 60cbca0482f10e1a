import { sleep } from '../bounds.ts';
import type { MemorySample } from '../child-ipc.ts';
import type { ServerChild } from '../children.ts';

export interface CpuMark {
  readonly wallMs: number;
  readonly serviceMs: number;
  readonly soakMs: number;
}

/** Each process's CPU time between two marks, as a share of one core. */
export function busyBetween(start: CpuMark, end: CpuMark) {
  const wallMs = end.wallMs - start.wallMs;
  return {
    service: (end.serviceMs - start.serviceMs) / wallMs,
    soak: (end.soakMs - start.soakMs) / wallMs,
  };
}

/**
 * The service child's memory and CPU, asked one question at a time: the child answers in
 * order but the IPC helper keeps only one question pending.
 */
export class ServiceProbe {
  readonly #server: ServerChild;
  #last: Promise<unknown> = Promise.resolve();
  #lastMemory: MemorySample | undefined;

  constructor(server: ServerChild) {
    this.#server = server;
  }

  /** The last memory sample taken, for the progress line. */
  get lastMemory(): MemorySample | undefined {
    return this.#lastMemory;
  }

  /** Heap and open streams after two forced full garbage collections. */
  memory(): Promise<MemorySample> {
    return this.#next(async () => (this.#lastMemory = await this.#server.memory()));
  }

  /**
   * Memory once the service has forgotten every stream, asking again for up to `limitMs`;
   * the last sample's `openStreams` says whether it did.
   */
  async memoryOnceStreamsClosed(limitMs: number): Promise<MemorySample> {
    let sample = await this.memory();
    for (let waited = 0; sample.openStreams > 0 && waited < limitMs; waited += 100) {
      await sleep(100);
      sample = await this.memory();
    }
    return sample;
  }

  /** CPU time so far of the service and of this process, to compare two marks. */
  async cpuMark(): Promise<CpuMark> {
    const service = await this.#next(() => this.#server.cpu());
    const own = process.cpuUsage();
    return {
      wallMs: performance.now(),
      serviceMs: service.userMs + service.systemMs,
      soakMs: (own.user + own.system) / 1000,
    };
  }

  #next<T>(question: () => Promise<T>): Promise<T> {
    const answer = this.#last.then(question, question);
    this.#last = answer.catch(() => {});
    return answer;
  }
}
