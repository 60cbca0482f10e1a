import { pino, type Logger } from 'pino';

/** One line of the Node host's log, as pino wrote it. */
export type LogLine = { level: number; time: number; msg: string } & Record<string, unknown>;

/** A logger at `level` that keeps every line it writes, parsed, and calls `onLine` with each. */
export function recordingLogger(
  level = 'info',
  onLine: (line: LogLine) => void = () => {},
): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level },
    {
      write(text: string) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        onLine(line);
      },
    },
  );
  return { logger, lines };
}
