import { hostname } from 'node:os';
import { pino, type DestinationStream, type Logger } from 'pino';
import PinoPretty from 'pino-pretty';
import { pathOf } from '../../http/url-path.ts';
import { jsonLines } from './json-lines.ts';
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
 * Where a JSON logger's request lines go, spelled out (`spelledLine`) rather than made by pino,
 * and pino's fields for them (`pid`, `hostname`) already serialised.
 */
interface SpelledLines {
  readonly destination: DestinationStream;
  readonly base: string;
}
const SPELLED = new WeakMap<Logger, SpelledLines>();

/**
 * Logs the one line `request`, known by `requestId`, gets once `response` is made; `started` is
 * `performance.now()` when it arrived.
 */
export function logRequest(
  logger: Logger,
  request: Request,
  requestId: string,
  response: Response,
  started: number,
): void {
  const path = pathOf(request.url);
  // Probes come every few seconds from every balancer: they would drown the log.
  const level = path === HEALTH_PATH ? 'debug' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const line: RequestLine = {
    reqId: requestId,
    method: request.method,
    path,
    status: response.status,
    ms: Math.round((performance.now() - started) * 100) / 100,
  };
  const spelled = SPELLED.get(logger);
  if (spelled === undefined) logger[level](line, REQUEST_MESSAGE);
  else spelled.destination.write(spelledLine(logger.levels.values[level]!, spelled.base, line));
}

/**
 * The line pino makes for `logger[level](line, 'request')`, byte for byte, in half the time
 * pino takes: every request writes one. A test holds it to pino's own line.
 */
function spelledLine(level: number, base: string, line: RequestLine): string {
  return (
    `{"level":${level},"time":${Date.now()}${base},"reqId":${JSON.stringify(line.reqId)},` +
    `"method":${JSON.stringify(line.method)},"path":${JSON.stringify(line.path)},` +
    `"status":${line.status},"ms":${line.ms},"msg":"${REQUEST_MESSAGE}"}\n`
  );
}

/**
 * pino's JSON lines in prod (`jsonLines`), the request lines among them spelled out; in dev,
 * pino-pretty's short readable lines. `destination` replaces either, for tests.
 */
export function createLogger(
  { level, format }: { level: LogLevel; format: LogFormat },
  destination?: DestinationStream,
): Logger {
  if (format === 'pretty') return pino({ level }, destination ?? readableLines());
  const json = destination ?? jsonLines();
  const logger = pino({ level }, json);
  // pino's own fields on every line, as its default `base` has them.
  const base = JSON.stringify({ pid: process.pid, hostname: hostname() }).slice(1, -1);
  SPELLED.set(logger, { destination: json, base: `,${base}` });
  return logger;
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
