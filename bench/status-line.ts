/**
 * The one status line on stderr. On a terminal it is rewritten in place, and redrawn every
 * second so that a long phase shows the run is alive; in a log it is a new line each time it
 * is drawn: when told to, and every `logEveryMs` if given, so a CI log stays short.
 */
export class StatusLine {
  readonly #timer: NodeJS.Timeout | undefined;

  /** `text` gives the line to show, or undefined for nothing. */
  constructor(
    private readonly text: () => string | undefined,
    logEveryMs?: number,
  ) {
    const everyMs = process.stderr.isTTY ? 1000 : logEveryMs;
    if (everyMs !== undefined) this.#timer = setInterval(() => this.draw(), everyMs).unref();
  }

  draw(): void {
    const line = this.text();
    if (line === undefined) return;
    if (!process.stderr.isTTY) process.stderr.write(`${line}\n`);
    else process.stderr.write(`\r\x1b[K${line.slice(0, (process.stderr.columns || 120) - 1)}`);
  }

  end(): void {
    clearInterval(this.#timer);
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
  }
}
