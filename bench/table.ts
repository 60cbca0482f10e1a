/** Number formats for the tables. */
export const format = {
  count: (value: number) =>
    Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—',
  fixed: (digits: number) => (value: number) =>
    Number.isFinite(value) ? value.toFixed(digits) : '—',
  ratio: (value: number | undefined) =>
    value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`,
  kib: (bytes: number) => (Number.isFinite(bytes) ? (bytes / 1024).toFixed(1) : '—'),
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
