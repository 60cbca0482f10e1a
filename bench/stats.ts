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
  const ratios: number[] = [];
  for (const a of runs.filter(isA)) {
    const b = runs.find((run) => isB(run) && run.round === a.round);
    if (b !== undefined && value(b) !== 0) ratios.push(value(a) / value(b));
  }
  return ratios.length === 0 ? undefined : median(ratios);
}
