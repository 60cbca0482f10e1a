import { pino, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import type { LogFormat, LogLevel } from './node-config.ts';

export type { Logger };

/** The fields of the one line each request gets, besides pino's own. */
export interface RequestLine {
  readonly reqId: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
}

export const REQUEST_MESSAGE = 'request';

/**
 * pino's JSON lines in prod, written asynchronously: a write to a pipe or file is a blocking
 * system call on Linux, so pino's destination gathers the lines that arrive while one write is
 * under way and flushes what it holds when the process exits. In dev, pino-pretty's short
 * readable lines. `destination` replaces either, for tests.
 */
export function createLogger(
  { level, format }: { level: LogLevel; format: LogFormat },
  destination?: DestinationStream,
): Logger {
  const target =
    destination ?? (format === 'json' ? pino.destination({ sync: false }) : readableLines());
  return pino({ level }, target);
}

/** pino-pretty's lines, with a request's fields folded into one short message. */
function readableLines(): DestinationStream {
  const requestFields = ['reqId', 'method', 'path', 'status', 'ms'];
  return PinoPretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...requestFields].join(','),
    messageFormat: (log, messageKey) => {
      if (log[messageKey] !== REQUEST_MESSAGE) {
        return log.reqId === undefined
          ? String(log[messageKey])
          : `${log[messageKey]} ${log.reqId}`;
      }
      const { method, path, status, ms, reqId } = log as unknown as RequestLine;
      return `${method} ${path} ${status} ${ms.toFixed(1)}ms ${reqId}`;
    },
  });
}
