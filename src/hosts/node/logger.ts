import { pino, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import sonicBoom from 'sonic-boom';
import { REQUEST_ID_HEADER } from '../../http/request-id.ts';
import { pathOf } from '../../http/url-path.ts';
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

const HEALTH_PATH = '/healthz';

/**
 * Logs the one line `request` gets once `response` is made; `started` is `performance.now()`
 * when it arrived.
 */
export function logRequest(
  logger: Logger,
  request: Request,
  response: Response,
  started: number,
): void {
  const line: RequestLine = {
    reqId: response.headers.get(REQUEST_ID_HEADER)!,
    method: request.method,
    path: pathOf(request.url),
    status: response.status,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
  // Probes come every few seconds from every balancer: they would drown the log.
  if (line.path === HEALTH_PATH) logger.debug(line, REQUEST_MESSAGE);
  else logger.info(line, REQUEST_MESSAGE);
}

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
  const target = destination ?? (format === 'json' ? jsonLines() : readableLines());
  return pino({ level }, target);
}

/**
 * Lines to stdout through sonic-boom, pino's destination, in its byte mode. In its default text
 * mode it appends each line to a growing string (up to 16 KiB) and measures that string's UTF-8
 * length on every write, which makes V8 copy the string: under load a line cost more the more
 * lines were waiting. In byte mode it keeps the lines as they are with their lengths and joins
 * them once per write.
 *
 * sonic-boom 5, not the 4 inside `pino.destination()`: once nothing reads stdout any more (the
 * log collector died, `| pino-pretty` was stopped), 4's flush at exit retries the failed write
 * every 100 ms for ever, and the process hangs, deaf to further signals. 5 gives up with the
 * error. As `pino.destination()` does, a reader gone ends the log, not the service, and lines
 * still waiting at exit are written before the process ends. Each call adds a listener for the
 * process's exit: the host makes one logger for its life.
 */
function jsonLines(): DestinationStream {
  const destination = new sonicBoom.SonicBoom({ fd: 1, sync: false, contentMode: 'buffer' });
  let readerGone = false;
  destination.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    readerGone = true;
  });
  process.once('exit', () => {
    try {
      if (!readerGone) destination.flushSync();
    } catch {
      // The process is ending either way: a line it cannot write (the reader went away at the
      // last moment) must not turn a clean exit into a crash.
    }
  });
  // In byte mode the destination takes bytes, though its types name only strings.
  const writeBytes = destination.write.bind(destination) as unknown as (bytes: Buffer) => boolean;
  return { write: (line: string) => readerGone || writeBytes(Buffer.from(line)) };
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
