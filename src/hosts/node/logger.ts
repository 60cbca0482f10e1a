import { pino, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import type { NodeConfig } from './node-config.ts';

export type { Logger };

export const REQUEST_MESSAGE = 'request';

/** pino's JSON lines in prod, pino-pretty's readable ones in dev; or `destination`, for tests. */
export function createLogger(
  { level, format }: NodeConfig['log'],
  destination?: DestinationStream,
): Logger {
  return pino({ level }, destination ?? (format === 'json' ? heldLines() : readableLines()));
}

const HELD_AT_MOST = 16 * 1024;
const HELD_FOR_MS = 50;

/**
 * The prod log's destination (docs/configuration.md, Logs): lines held and written together, as
 * a system call a line cost more than the line (sonic-boom's `minLength` measures all it holds
 * for every line); synchronously, as libuv's thread pool cost more CPU on one core than it saved.
 * Each call adds an exit listener: the host makes one logger for its life.
 */
function heldLines(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: true });
  let held = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const text = held;
    held = '';
    if (text !== '') stdout.write(text);
  };
  process.once('exit', () => {
    try {
      flush();
    } catch {
      // A line the ending process cannot write must not turn a clean exit into a crash.
    }
  });
  return {
    write(line: string) {
      held += line;
      if (held.length >= HELD_AT_MOST) flush();
      // Unreferenced: lines waiting must not keep alive a process that has nothing else to do.
      else timer ??= setTimeout(flush, HELD_FOR_MS).unref();
    },
  };
}

/** pino-pretty's lines, with a request's fields folded into one short message. */
function readableLines(): DestinationStream {
  return PinoPretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,method,path,status,ms',
    messageFormat: (log, messageKey) => {
      if (log[messageKey] !== REQUEST_MESSAGE) {
        const request = [log.method, log.path, log.reqId].filter((field) => field !== undefined);
        return [log[messageKey], ...request].join(' ');
      }
      return `${log.method} ${log.path} ${log.status} ${(log.ms as number).toFixed(1)}ms ${log.reqId}`;
    },
  });
}
