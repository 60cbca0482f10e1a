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
 * Lines are gathered up to this size, or for at most this long, before one write: each write
 * to a pipe or file is a system call on a worker thread, and a line per request is too many.
 */
const BATCH = { minLength: 4096, periodicFlush: 100 };

/**
 * pino's JSON lines in prod, written asynchronously and in batches; pino's destination writes
 * out what it holds when the process exits, so only a kill -9 can lose the last tenth of a
 * second. In dev, pino-pretty's short readable lines. `destination` replaces either, for tests.
 */
export function createLogger(
  { level, format }: { level: LogLevel; format: LogFormat },
  destination?: DestinationStream,
): Logger {
  const target =
    destination ??
    (format === 'json' ? pino.destination({ sync: false, ...BATCH }) : readableLines());
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
