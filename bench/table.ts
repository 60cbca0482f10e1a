const shown = (value: number | undefined, text: (value: number) => string) =>
  value !== undefined && Number.isFinite(value) ? text(value) : '—';

/** How the bench prints numbers; '—' for what was not measured. */
export const format = {
  count: (value: number) => shown(value, (n) => Math.round(n).toLocaleString('en-US')),
  fixed: (digits: number) => (value: number) => shown(value, (n) => n.toFixed(digits)),
  ratio: (value: number | undefined) => shown(value, (n) => `${n.toFixed(2)}×`),
  kib: (bytes: number) => shown(bytes, (n) => (n / 1024).toFixed(1)),
  mib: (bytes: number) => shown(bytes, (n) => `${(n / 2 ** 20).toFixed(2)} MiB`),
};

/** A Markdown table, padded so it reads in a terminal too; the first column is left-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((_, column) =>
    Math.max(3, ...[header, ...rows].map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, at) => (cells[at] ?? '')[at === 0 ? 'padEnd' : 'padStart'](width)).join(' | ')} |`;
  const rule = widths.map((width, at) =>
    at === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`,
  );
  return [line(header), `| ${rule.join(' | ')} |`, ...rows.map(line)].join('\n');
}

/** The middle of a few figures. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The median of `value(a) / value(b)` taken within each turn: runs of one turn are close in
 * time, so their ratio is steadier than a ratio of medians when the machine drifts.
 */
export function medianRatio<T extends { readonly turn: number }>(
  runs: readonly T[],
  isA: (run: T) => boolean,
  isB: (run: T) => boolean,
  value: (run: T) => number,
): number | undefined {
  const ratios = runs.filter(isA).flatMap((a) => {
    const b = runs.find((run) => isB(run) && run.turn === a.turn);
    return b === undefined || value(b) === 0 ? [] : [value(a) / value(b)];
  });
  return ratios.length === 0 ? undefined : median(ratios);
}

/**
 * The one status line on stderr: rewritten in place on a terminal, a new line each time in a
 * log.
 */
export const status = {
  show(text: string): void {
    if (!process.stderr.isTTY) process.stderr.write(`${text}\n`);
    else process.stderr.write(`\r\x1b[K${text.slice(0, (process.stderr.columns || 120) - 1)}`);
  },
  end(): void {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  },
};
