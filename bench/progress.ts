import { StatusLine } from './status-line.ts';

const clock = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** The bench's status line: which step of how many, the time so far and left, what runs now. */
export class Progress {
  readonly #startedAt = performance.now();
  readonly #line = new StatusLine(() => this.#text());
  #step = 0;
  #label = '';
  #detail = '';
  /** Planned seconds of the steps begun, and of the steps finished. */
  #plannedBegun = 0;
  #plannedDone = 0;

  /** `plannedSeconds`: what all the steps should take, to estimate the time left. */
  constructor(
    private readonly totalSteps: number,
    private readonly plannedSeconds: number,
  ) {}

  /** A new step begins, planned to take `plannedSeconds`. */
  step(label: string, plannedSeconds: number): void {
    this.#plannedDone = this.#plannedBegun;
    this.#plannedBegun += plannedSeconds;
    this.#step += 1;
    this.#label = label;
    this.show('starting');
  }

  /** What the current step is doing now. */
  show(detail: string): void {
    this.#detail = detail;
    this.#line.draw();
  }

  end(): void {
    this.#line.end();
  }

  #text(): string {
    const elapsed = performance.now() - this.#startedAt;
    // Scaled by how the finished steps kept to their plan.
    const left =
      this.#plannedDone === 0
        ? ''
        : `, ~${clock((elapsed / this.#plannedDone) * (this.plannedSeconds - this.#plannedDone))} left`;
    return `[${this.#step}/${this.totalSteps} ${clock(elapsed)}${left}] ${this.#label}: ${this.#detail}`;
  }
}
