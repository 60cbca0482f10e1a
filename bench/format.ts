const MIB = 1024 * 1024;
const shown = (value: number, text: (value: number) => string) =>
  Number.isFinite(value) ? text(value) : '—';

/** How the bench and the soak print numbers; '—' for what was not measured. */
export const format = {
  count: (value: number) => shown(value, (n) => Math.round(n).toLocaleString('en-US')),
  fixed: (digits: number) => (value: number) => shown(value, (n) => n.toFixed(digits)),
  ratio: (value: number | undefined) => shown(value ?? NaN, (n) => `${n.toFixed(2)}×`),
  kib: (bytes: number) => shown(bytes, (n) => (n / 1024).toFixed(1)),
  mib: (bytes: number) => shown(bytes, (n) => `${(n / MIB).toFixed(2)} MiB`),
  signedMib: (bytes: number) => `${bytes >= 0 ? '+' : '−'}${format.mib(Math.abs(bytes))}`,
  ms: (value: number) => shown(value, (n) => `${n.toFixed(n < 10 ? 2 : 1)} ms`),
  seconds: (value: number) => shown(value, (n) => `${n.toFixed(1)} s`),
};

/** A Markdown table, padded so it reads in a terminal too; the first column is left-aligned. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const lines = [header, ...rows];
  const widths = header.map((_, column) =>
    Math.max(...lines.map((line) => (line[column] ?? '').length)),
  );
  const render = (cells: readonly string[]) =>
    `| ${widths
      .map((width, column) =>
        column === 0 ? (cells[column] ?? '').padEnd(width) : (cells[column] ?? '').padStart(width),
      )
      .join(' | ')} |`;
  const rule = `| ${widths
    .map((width, column) => (column === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`))
    .join(' | ')} |`;
  return [render(header), rule, ...rows.map(render)].join('\n');
}
