const clock = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * The one status line on stderr: which step of how many, the time so far and an estimate of
 * what is left, and what runs now. Rewritten in place on a terminal, one line each otherwise.
 */
export class Progress {
  readonly #startedAt = performance.now();
  #step = 0;
  #label = '';
  #detail = '';
  /** Planned seconds of the steps begun, and of the steps finished. */
  #plannedBegun = 0;
  #plannedDone = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** `plannedSeconds`: what all the steps should take, to estimate the time left. */
  constructor(
    private readonly totalSteps: number,
    private readonly plannedSeconds: number,
  ) {
    // A ticking clock on a terminal shows the run is alive during long phases.
    if (process.stderr.isTTY) this.#timer = setInterval(() => this.#draw(), 1000).unref();
  }

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
    this.#draw(true);
  }

  end(): void {
    clearInterval(this.#timer);
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }

  #draw(changed = false): void {
    if (!process.stderr.isTTY && !changed) return;
    const elapsed = performance.now() - this.#startedAt;
    // Scaled by how the finished steps kept to their plan.
    const left =
      this.#plannedDone === 0
        ? ''
        : `, ~${clock((elapsed / this.#plannedDone) * (this.plannedSeconds - this.#plannedDone))} left`;
    const line = `[${this.#step}/${this.totalSteps} ${clock(elapsed)}${left}] ${this.#label}: ${this.#detail}`;
    if (process.stderr.isTTY) {
      const width = process.stderr.columns || 120;
      process.stderr.write(`\r\x1b[K${line.slice(0, width - 1)}`);
    } else process.stderr.write(`${line}\n`);
  }
}
