/** What makes the soak fail, each counted on its own. */
export type FailureKind =
  | '5xx'
  | 'connection reset'
  | 'request error'
  | 'unexpected status'
  | 'wrong answer'
  | 'missed event'
  | 'wrong event'
  | 'event stream error'
  | 'change count'
  | 'heap growth'
  | 'open streams';

const EXAMPLES_KEPT = 3;

/**
 * Every failure seen, by kind, with the first few in full. The first one stops the traffic:
 * a soak that has failed has nothing more to prove, and a flood of the same message hides
 * the first cause.
 */
export class Failures {
  readonly #counts = new Map<FailureKind, number>();
  readonly #examples = new Map<FailureKind, string[]>();
  readonly #firstSeen: Promise<void>;
  #signalFirst: () => void = () => {};

  constructor() {
    this.#firstSeen = new Promise((resolve) => (this.#signalFirst = resolve));
  }

  /** Resolves at the first failure. */
  get first(): Promise<void> {
    return this.#firstSeen;
  }

  get total(): number {
    let total = 0;
    for (const count of this.#counts.values()) total += count;
    return total;
  }

  count(kind: FailureKind): number {
    return this.#counts.get(kind) ?? 0;
  }

  add(kind: FailureKind, detail: string): void {
    this.#counts.set(kind, this.count(kind) + 1);
    const examples = this.#examples.get(kind) ?? [];
    if (examples.length < EXAMPLES_KEPT) examples.push(detail);
    this.#examples.set(kind, examples);
    this.#signalFirst();
  }

  /** One line a kind, then its first examples indented. */
  describe(): string[] {
    const lines: string[] = [];
    for (const [kind, count] of this.#counts) {
      lines.push(`${kind}: ${count.toLocaleString('en-US')}`);
      for (const example of this.#examples.get(kind) ?? []) lines.push(`  - ${example}`);
    }
    return lines;
  }
}
