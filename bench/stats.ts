/** The middle of a few rounds' figures. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median over rounds of `a / b` taken within each round: runs of one round are close in
 * time, so their ratio is steadier than a ratio of medians when the machine drifts.
 */
export function medianRatio<T extends { readonly round: number }>(
  runs: readonly T[],
  isA: (run: T) => boolean,
  isB: (run: T) => boolean,
  value: (run: T) => number,
): number | undefined {
  return medianOfRounds(runs, isA, isB, (a, b) => (b === 0 ? undefined : value(a) / b), value);
}

/** The median over rounds of `a - b` taken within each round, for the same reason. */
export function medianDifference<T extends { readonly round: number }>(
  runs: readonly T[],
  isA: (run: T) => boolean,
  isB: (run: T) => boolean,
  value: (run: T) => number,
): number | undefined {
  return medianOfRounds(runs, isA, isB, (a, b) => value(a) - b, value);
}

function medianOfRounds<T extends { readonly round: number }>(
  runs: readonly T[],
  isA: (run: T) => boolean,
  isB: (run: T) => boolean,
  combine: (a: T, bValue: number) => number | undefined,
  value: (run: T) => number,
): number | undefined {
  const figures: number[] = [];
  for (const a of runs.filter(isA)) {
    const b = runs.find((run) => isB(run) && run.round === a.round);
    const figure = b === undefined ? undefined : combine(a, value(b));
    if (figure !== undefined) figures.push(figure);
  }
  return figures.length === 0 ? undefined : median(figures);
}
