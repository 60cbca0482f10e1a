/** One status line on stderr: rewritten in place on a terminal, one line each otherwise. */
export function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
  else process.stderr.write(`${text}\n`);
}

export function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
}
